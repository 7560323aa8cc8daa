import Foundation
import IntercomBase
import IntercomOperator
import IntercomTestSupport
import Synchronization
import Testing

/// Issue 42: `login`, `logout` and the commands that note things in the token file (`open`'s zone
/// probe, the log sync's offset, `export`/`watch` keeping cameras) change one file. Each does so
/// under the file's lock, and only login and logout write the token, so a note made with a token
/// read earlier never brings back a logged-out or replaced one. The operations are the store's own,
/// as each command calls them, on threads: every hold opens the lock file anew, and flock locks
/// belong to the open file, so threads exclude each other as separate processes do.
@Suite struct OperatorTokenConcurrencyTests {
    static let name = "home"

    /// What the noting commands do, each with what it read before (a client made with the token).
    static func note(_ store: OperatorTokenStore, kind: Int, round: Int) {
        let earlier = try? store.load(name)
        switch kind {
        case 0:  // open: the door just opened, as a probe of the server's zone
            try? store.update(name) { $0.zoneProbe = OperatorZoneProbe(sent: Date(), domophoneId: "d", doorId: round) }
        case 1:  // the log sync: the probe found, the offset learned
            try? store.update(name) {
                $0.serverOffset = 10_800
                $0.zoneProbe = nil
            }
        default:  // export / watch: a camera found with the token it read
            guard let token = earlier?.token else { return }
            try? store.update(name, whileLoggedInWith: token) {
                $0.cameras = [OperatorCamera(id: "cam-\(token)", name: "Porch", token: "stream-\(token)")]
            }
        }
    }

    /// What a reader sees: nil when the file holds no token, else the token; the cameras' ids.
    static func seen(_ store: OperatorTokenStore) throws -> (token: String?, cameras: [String]) {
        let credentials = try #require(try store.load(name), "the token file is always there, whole")
        return (credentials.token, credentials.cameras.map(\.id))
    }

    @Test func loginLogoutAndNotesOneHundredTimesLeaveTheNewestTokenOrNone() throws {
        let directory = try TestDirectory(prefix: "intercom-token-race")
        let store = OperatorTokenStore(directory: directory.path + "/operators")
        let deviceId = try store.loadOrCreate(Self.name).deviceId
        let wrong = Mutex<[String]>([])
        for round in 1...100 {
            let token = "token-\(round)"
            let stop = Atomic(false)
            let noters = DispatchGroup()
            for kind in 0..<3 {
                noters.enter()
                Thread {
                    while !stop.load(ordering: .relaxed) { Self.note(store, kind: kind, round: round) }
                    noters.leave()
                }.start()
            }
            // login: the device id read first, the token written at the end.
            _ = try store.loadOrCreate(Self.name)
            try store.logIn(Self.name, token: token, deviceId: deviceId)
            for _ in 0..<5 {
                let now = try Self.seen(store)
                if now.token != token || now.cameras.contains(where: { $0 != "cam-\(token)" }) {
                    wrong.withLock { $0.append("round \(round) after login: \(now)") }
                }
            }
            #expect(try store.logout(Self.name))
            for _ in 0..<5 {
                let now = try Self.seen(store)
                if now.token != nil || !now.cameras.isEmpty { wrong.withLock { $0.append("round \(round) after logout: \(now)") } }
            }
            stop.store(true, ordering: .relaxed)
            noters.wait()
            let end = try Self.seen(store)
            if end.token != nil || !end.cameras.isEmpty { wrong.withLock { $0.append("round \(round) at its end: \(end)") } }
        }
        #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0.prefix(5) })")
        #expect(try store.load(Self.name)?.deviceId == deviceId)
        // One lock file beside the token file, and no temporary file left by any of the writes.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).sorted() == [".home.json.lock", "home.json"])
    }

    /// A login and a logout racing each other (two commands at once) end as whichever took the
    /// lock last: the new token with nothing of the old session, or no token and no cameras.
    @Test func aLoginAndALogoutAtOnceEndAsOneOfThem() throws {
        let directory = try TestDirectory(prefix: "intercom-token-race")
        let store = OperatorTokenStore(directory: directory.path + "/operators")
        let deviceId = try store.loadOrCreate(Self.name).deviceId
        for round in 1...100 {
            let token = "token-\(round)"
            let commands = DispatchGroup()
            for kind in 0..<5 {
                commands.enter()
                Thread {
                    switch kind {
                    case 0: try? store.logIn(Self.name, token: token, deviceId: deviceId)
                    case 1: _ = try? store.logout(Self.name)
                    default: Self.note(store, kind: kind - 2, round: round)
                    }
                    commands.leave()
                }.start()
            }
            commands.wait()
            let end = try Self.seen(store)
            #expect(end.token == nil || end.token == token, "round \(round): \(end)")
            #expect(end.cameras.allSatisfy { end.token != nil && $0 == "cam-\(token)" }, "round \(round): \(end)")
        }
    }
}
