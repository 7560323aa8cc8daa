import Foundation
import IntercomBase
import Synchronization

/// The screens attached to the daemon (`status` lists them) and which of them look at each
/// panel live: when the last one stops, the panel's live stream stops with it.
final class AttachedScreens: Sendable {
    struct Screen: Sendable {
        var name: String
        var pid: Int32?
        var since: Date
    }

    private let screens = Mutex<[Int: Screen]>([:])
    /// Connection numbers with a live subscription, by panel.
    private let viewers = Mutex<[String: Set<Int>]>([:])

    func attach(_ number: Int, name: String, pid: Int32?) {
        screens.withLock { $0[number] = Screen(name: name, pid: pid, since: Date()) }
    }

    /// Forgets a closed connection; returns the panels nobody else looks at live any more.
    func detach(_ number: Int) -> [String] {
        screens.withLock { _ = $0.removeValue(forKey: number) }
        return viewers.withLock { all in
            var alone: [String] = []
            for (panel, numbers) in all where numbers.contains(number) {
                all[panel]?.remove(number)
                if all[panel]?.isEmpty == true {
                    all[panel] = nil
                    alone.append(panel)
                }
            }
            return alone.sorted()
        }
    }

    /// Notes whether connection `number` looks at `panel` live; true when it was the last to stop.
    func look(_ number: Int, panel: String, live: Bool) -> Bool {
        viewers.withLock { all in
            if live {
                all[panel, default: []].insert(number)
                return false
            }
            guard all[panel]?.remove(number) != nil else { return false }
            if all[panel]?.isEmpty == true { all[panel] = nil }
            return all[panel] == nil
        }
    }

    var count: Int { screens.withLock { $0.count } }

    /// `[{"id":N,"name":"tui","pid":P,"since":…}]` in the order they attached.
    var json: JSONValue {
        let list = screens.withLock { $0.sorted { $0.key < $1.key } }
        return .array(list.map { number, screen in
            .object([("id", .integer(number)), ("name", .string(screen.name)),
                     ("pid", screen.pid.map { .integer(Int($0)) } ?? .null),
                     ("since", .string(RFC3339.string(screen.since)))])
        })
    }

    /// The status object with `screens` added.
    func adding(to status: JSONValue) -> JSONValue {
        guard case .object(var fields) = status else { return status }
        fields.append(("screens", json))
        return .object(fields)
    }
}
