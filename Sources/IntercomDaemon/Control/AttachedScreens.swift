import Foundation
import IntercomBase
import Synchronization

/// The screens attached to the daemon (`status` lists them).
final class AttachedScreens: Sendable {
    struct Screen: Sendable {
        var name: String
        var pid: Int32?
        /// The host user it runs as (its peer's uid), as `who` names it.
        var user: String?
        var since: Date
    }

    private let screens = Mutex<[Int: Screen]>([:])

    func attach(_ number: Int, name: String, pid: Int32?, user: String? = nil) {
        screens.withLock { $0[number] = Screen(name: name, pid: pid, user: user, since: Date()) }
    }

    func detach(_ number: Int) {
        screens.withLock { _ = $0.removeValue(forKey: number) }
    }

    var count: Int { screens.withLock { $0.count } }

    /// `[{"id":N,"name":"tui","pid":P,"user":U,"since":…}]` in the order they attached: `id` is the
    /// `screen` of a `who` that names the screen.
    var json: JSONValue {
        let list = screens.withLock { $0.sorted { $0.key < $1.key } }
        return .array(list.map { number, screen in
            .object([("id", .integer(number)), ("name", .string(screen.name)),
                     ("pid", screen.pid.map { .integer(Int($0)) } ?? .null), ("user", .optional(screen.user)),
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
