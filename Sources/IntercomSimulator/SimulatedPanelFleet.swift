import Foundation
import IntercomBase

/// Many simulated panels in one process (`simulate-panel --count N`), so a test or a bench can
/// build a residential complex without N processes. Panel `i` (0-based) is named `panel-NN`
/// (`NN` = i + 1, zero-padded to the count's width), calls as SIP user `base + i` (100001, 100002…)
/// and listens on `port + i` for HTTP, SIP and RTSP when the base port is not 0 (0 = each a free one).
///
/// Each member is a whole `SimulatedPanel`: its own microhttpd daemon and its own liblinphone core
/// (all cores are iterated by the one shared liblinphone thread, so SIP adds no thread per panel).
public final class SimulatedPanelFleet: Sendable {
    public struct Member: Sendable {
        /// 0-based position; the name shows it 1-based.
        public let index: Int
        public let name: String
        public let panel: SimulatedPanel
    }

    public let members: [Member]

    private init(members: [Member]) {
        self.members = members
    }

    /// The name of panel `index` among `count`: `panel-07`, with at least two digits.
    public static func name(index: Int, count: Int) -> String {
        let width = max(2, String(count).count)
        let number = String(index + 1)
        return "panel-" + String(repeating: "0", count: max(0, width - number.count)) + number
    }

    /// Starts `count` panels in turn from `options`/`sip`: ports (HTTP, SIP, RTSP) and the SIP user
    /// advance by one per panel unless 0. A failure stops the ones already started and is rethrown.
    /// The caller checks that `user` is a number and the ports fit (`port + count - 1 ≤ 65535`).
    public static func start(count: Int, options: SimulatedPanelOptions, sip: SimulatedPanelSIPOptions,
                             logger: Logger = .silent) async throws -> SimulatedPanelFleet {
        let firstUser = Int(sip.user) ?? 100_001
        var members: [Member] = []
        do {
            for index in 0..<max(1, count) {
                var http = options
                var phone = sip
                if http.port != 0 { http.port += UInt16(index) }
                if let rtsp = http.rtspPort, rtsp != 0 { http.rtspPort = rtsp + UInt16(index) }
                if phone.listen.port != 0 { phone.listen.port += index }
                phone.user = String(firstUser + index)
                if let directory = sip.dataDirectory {
                    phone.dataDirectory = (directory as NSString).appendingPathComponent("panel-\(index + 1)")
                }
                let panel = try await SimulatedPanel.start(options: http, sip: phone, logger: logger)
                members.append(Member(index: index, name: name(index: index, count: count), panel: panel))
            }
        } catch {
            for member in members { await member.panel.stop() }
            throw error
        }
        return SimulatedPanelFleet(members: members)
    }

    /// A member by its name (`panel-07`, any case) or its 1-based number (`7`).
    public func member(_ key: String) -> Member? {
        if let number = Int(key), number >= 1, number <= members.count { return members[number - 1] }
        return members.first { $0.name.lowercased() == key.lowercased() }
    }

    /// Stops every panel (in parallel: each waits for its phone and HTTP server).
    public func stop() async {
        await withTaskGroup(of: Void.self) { group in
            for member in members { group.addTask { await member.panel.stop() } }
        }
    }
}
