import Foundation
import IntercomDaemon
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomPhone

/// The control socket against an in-process core: a liblinphone phone rings it as the panel would.
@Suite(.removesTestFolders) struct ControlSocketTests {
    struct Setup {
        var directory: TestDirectory
        var intercom: Intercom
        var server: ControlServer
        var events: EventRecorder<IntercomEvent>
        var panel: Phone
        var path: String { server.path }

        func stop() async {
            server.stop()
            await panel.stop()
            await intercom.stop()
        }

        func ring() async throws -> IntercomEvent.CallRef {
            let port = await intercom.listening.first?.port ?? 0
            _ = try await panel.call("sip:door@127.0.0.1:\(port)", video: false)
            return try await events.wait("call_incoming") { e -> IntercomEvent.CallRef? in
                if case .callIncoming(let c) = e.kind { c } else { nil } }
        }

        /// A client on its own thread: ControlClient blocks.
        func client() throws -> ControlClient { try ControlClient(path: path) }
    }

    static func setup(credentials: (@Sendable (Int32) -> PeerCredentials?)? = nil, outboxLimit: Int = 1 << 20) async throws -> Setup {
        let directory = try TestDirectory(prefix: "intercom-ctl")
        let path = directory.path + "/run/intercom/control.sock"
        let panelConfig = PanelConfig(name: "entrance", url: "http://127.0.0.1:9", user: "admin", password: "admin",
                                      match: [.uriPrefix("sip:panel@")])
        let (intercom, events) = try await PhoneTestSupport.intercom(panels: [panelConfig], socketPath: path)
        let server = ControlServer(path: path, intercom: intercom, logger: .silent, outboxLimit: outboxLimit,
                                   credentials: credentials)
        try server.start()
        let (panel, _) = try await PhoneTestSupport.phone("panel")
        return Setup(directory: directory, intercom: intercom, server: server, events: events, panel: panel)
    }

    /// Runs blocking client work off the cooperative pool.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    @Test func statusRoundTripAndSocketMode() async throws {
        let s = try await Self.setup()
        try await withCleanup({ await s.stop() }) {
            var info = stat()
            #expect(stat(s.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
            #expect(stat((s.path as NSString).deletingLastPathComponent, &info) == 0 && info.st_mode & 0o777 == 0o700)
            let reply = try await Self.blocking {
                try ControlClient(path: s.path).request(ControlRequest(id: .string("q1"), action: .command(.status)))
            }
            #expect(reply["ok"] == .bool(true) && reply["id"] == .string("q1"))
            #expect(reply["data"]?["panels"] != nil && reply["data"]?["calls"] == .array([]))
        }
    }

    @Test func answerThroughTheSocketWhileRinging() async throws {
        let s = try await Self.setup()
        try await withCleanup({ await s.stop() }) {
            let call = try await s.ring()
            let reply = try await Self.blocking {
                try ControlClient(path: s.path).request(ControlRequest(id: .integer(2), action: .command(.answer(call.id))))
            }
            #expect(reply["ok"] == .bool(true), "\(reply.encoded)")
            #expect(reply["data"]?["call"] == .string(call.id.rawValue))
            _ = try await s.events.wait("call_answered") { e -> Bool? in if case .callAnswered = e.kind { true } else { nil } }
            let hangup = try await Self.blocking {
                try ControlClient(path: s.path).request(ControlRequest(id: .integer(3), action: .command(.hangup(nil))))
            }
            #expect(hangup["ok"] == .bool(true))
        }
    }

    @Test func eventsStreamStartsWithStateThenEvents() async throws {
        let s = try await Self.setup()
        try await withCleanup({ await s.stop() }) {
            let client = try s.client()
            try client.send(ControlRequest(action: .events(call: nil)))
            let first = try await Self.blocking { client.readLine() }
            let state = try #require(first.flatMap(JSONValue.parse))
            #expect(state["event"] == .string("state") && state["calls"] != nil)
            _ = try await s.ring()
            let next = try await Self.blocking { client.readLine() }
            #expect(next.flatMap(JSONValue.parse)?["event"] == .string("call_incoming"), "\(next ?? "EOF")")
        }
    }

    /// A mute through the socket reaches every events client as `audio_changed`, and `status` agrees.
    @Test func muteOverTheSocketIsAnEventAndInStatus() async throws {
        let s = try await Self.setup()
        do {
            let watcher = try s.client()
            try watcher.send(ControlRequest(action: .events(call: nil)))
            let state = try await Self.blocking { watcher.readLine() }.flatMap(JSONValue.parse)
            #expect(state?["muted"] == .bool(false), "\(state?.encoded ?? "EOF")")
            let reply = try await Self.blocking {
                try ControlClient(path: s.path).request(ControlRequest(id: .integer(4), action: .command(.mute(true))))
            }
            #expect(reply["ok"] == .bool(true) && reply["data"]?["muted"] == .bool(true), "\(reply.encoded)")
            let event = try await Self.blocking { watcher.readLine() }.flatMap(JSONValue.parse)
            #expect(event?["event"] == .string("audio_changed") && event?["muted"] == .bool(true)
                    && event?["speaker"] == .bool(false), "\(event?.encoded ?? "EOF")")
            let status = try await Self.blocking {
                try ControlClient(path: s.path).request(ControlRequest(id: .integer(5), action: .command(.status)))
            }
            #expect(status["data"]?["muted"] == .bool(true), "\(status.encoded)")
        } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }

    @Test func twoClientsAtOnceAndAStalledOneDoesNotBlock() async throws {
        let s = try await Self.setup()
        try await withCleanup({ await s.stop() }) {
            // A client that asks for events and never reads.
            let stalled = try s.client()
            try stalled.send(ControlRequest(action: .events(call: nil)))
            let a = try s.client()
            let b = try s.client()
            let replies = try await Self.blocking { () -> (JSONValue, JSONValue) in
                try a.send(ControlRequest(id: .string("a"), action: .command(.status)))
                try b.send(ControlRequest(id: .string("b"), action: .command(.status)))
                let rb = try b.request(ControlRequest(id: .string("b2"), action: .command(.status)))
                let ra = try a.request(ControlRequest(id: .string("a2"), action: .command(.status)))
                return (ra, rb)
            }
            #expect(replies.0["ok"] == .bool(true) && replies.1["ok"] == .bool(true))
            #expect(s.server.clientCount == 3)
            withExtendedLifetime(stalled) {}
        }
    }

    @Test func aClientThatNeverReadsIsDroppedAndOthersCarryOn() async throws {
        let s = try await Self.setup(outboxLimit: 16 * 1024)
        try await withCleanup({ await s.stop() }) {
            let stalled = try s.client()
            try stalled.send(ControlRequest(action: .events(call: nil)))
            let reader = try s.client()
            try reader.send(ControlRequest(action: .events(call: nil)))
            // Both subscribed (the state line comes after the subscription) before the flood.
            let state = try await Self.blocking { reader.readLine() }
            #expect(state?.contains("\"event\":\"state\"") == true)
            try await Task.sleep(for: .milliseconds(100))
            // A real thread: a blocking read must not sit on the cooperative pool.
            let drained = Task { try await Self.blocking { () -> Int in
                var count = 0
                while let line = reader.readLine() {
                    if line.contains("\"message\":\"flood 1999\"") { return count }
                    count += 1
                }
                return -1
            } }
            // ~2000 events of ~100 bytes: far more than the socket buffer plus the 16 KiB outbox of
            // the client that never reads; paced so the one that reads keeps up.
            for i in 0..<2000 {
                s.intercom.bus.publish(IntercomEvent(.error(message: "flood \(i)")))
                if i % 20 == 19 { try await Task.sleep(for: .milliseconds(2)) }
            }
            let received = try await drained.value
            #expect(received == 1999, "the reading client lost events: \(received)")
            await TestPatience.eventually(within: .seconds(3)) { s.server.clientCount <= 1 }
            #expect(s.server.clientCount == 1, "the stalled client was not dropped")
            withExtendedLifetime(stalled) {}
        }
    }

    @Test func malformedRequestsGetAnErrorAndTheConnectionStays() async throws {
        let s = try await Self.setup()
        try await withCleanup({ await s.stop() }) {
            let client = try s.client()
            let lines = try await Self.blocking { () -> [JSONValue?] in
                try client.sendLine("this is not json")
                try client.sendLine(#"{"command":"frobnicate","id":5}"#)
                try client.sendLine(#"{"id":6}"#)
                try client.sendLine(#"{"command":"dtmf","id":7}"#)
                try client.sendLine(#"{"command":"answer","id":8}"#)
                try client.sendLine(#"{"command":"status","id":9}"#)
                return (0..<6).map { _ in client.readLine().flatMap(JSONValue.parse) }
            }
            #expect(lines[0]?["ok"] == .bool(false) && lines[0]?["error"]?.stringValue?.contains("not JSON") == true)
            #expect(lines[1]?["id"] == .integer(5) && lines[1]?["error"]?.stringValue?.contains("unknown command 'frobnicate'") == true)
            #expect(lines[2]?["error"]?.stringValue?.contains("\"command\"") == true)
            #expect(lines[3]?["error"]?.stringValue?.contains("digits") == true)
            #expect(lines[4]?["ok"] == .bool(false) && lines[4]?["error"] == .string("no ringing call"))
            #expect(lines[5]?["id"] == .integer(9) && lines[5]?["ok"] == .bool(true))
        }
    }

    @Test func peerOfAnotherUIDIsRefused() async throws {
        // The kernel would report the connecting process; the double says it is someone else.
        let s = try await Self.setup(credentials: { _ in PeerCredentials(pid: 4242, uid: getuid() + 1, gid: 100) })
        try await withCleanup({ await s.stop() }) {
            let client = try s.client()
            let line = try await Self.blocking { () -> String? in
                let first = client.readLine()
                try? client.sendLine(#"{"command":"status"}"#)
                return first
            }
            let refusal = try #require(line.flatMap(JSONValue.parse))
            #expect(refusal["ok"] == .bool(false) && refusal["error"]?.stringValue?.contains("uid \(getuid() + 1)") == true)
            let after = try await Self.blocking { client.readLine() }
            #expect(after == nil)
            #expect(PeerPolicy.refusal(for: PeerCredentials(pid: 1, uid: getuid(), gid: 0), ownUID: getuid()) == nil)
            #expect(PeerPolicy.refusal(for: nil, ownUID: getuid()) != nil)
        }
    }

    @Test func staleSocketIsReplacedButALiveDaemonIsNot() async throws {
        let s = try await Self.setup()
        try await withCleanup({ await s.stop() }) {
            let second = ControlServer(path: s.path, intercom: s.intercom, logger: .silent)
            #expect(throws: ControlError.alreadyRunning(s.path)) { try second.start() }
            // A leftover socket file with nobody behind it (a daemon killed with -9).
            let stalePath = s.directory.path + "/stale.sock"
            let stale = ControlServer(path: stalePath, intercom: s.intercom, logger: .silent)
            try stale.start()
            let fd = open(stalePath, O_RDONLY)  // keep nothing; just show the file exists
            if fd >= 0 { close(fd) }
            #expect(FileManager.default.fileExists(atPath: stalePath))
            let copy = s.directory.path + "/stale-copy.sock"
            #expect(link(stalePath, copy) == 0)
            stale.stop()
            #expect(FileManager.default.fileExists(atPath: copy))
            let again = ControlServer(path: copy, intercom: s.intercom, logger: .silent)
            try again.start()
            again.stop()
        }
    }

    @Test func requestParserMapsToCommands() throws {
        func parse(_ line: String) -> ControlRequest.Action? { try? ControlRequest.parse(line).get().action }
        #expect(parse(#"{"command":"open","door":"alt","panel":"entrance"}"#) == .command(.open(panel: "entrance", door: .alt)))
        #expect(parse(#"{"command":"open","door":2}"#) == .command(.open(panel: nil, door: .output(2))))
        #expect(parse(#"{"command":"dtmf","call":"c1","digits":"12#"}"#) == .command(.dtmf(CallID("c1"), digits: "12#")))
        #expect(parse(#"{"command":"events","call":"c3"}"#) == .events(call: CallID("c3")))
        #expect(parse(#"{"command":"mute","on":true}"#) == .command(.mute(true)))
        let round = ControlRequest(id: .integer(4), action: .command(.open(panel: "a b;c", door: .light)))
        #expect(try ControlRequest.parse(round.json.encoded).get() == round)
        // A hook may say it is one, an attached screen that a key opened; nobody may claim guest mode
        // (or MQTT, or `intercom open`) over the socket.
        for by in [DoorTrigger.hook, .key] {
            let claim = ControlRequest(id: .integer(5), action: .command(.open(panel: nil, door: .main, by: by)))
            #expect(try ControlRequest.parse(claim.json.encoded).get() == claim)
        }
        for claimed in ["guest_mode", "mqtt", "command", "nonsense"] {
            guard case .failure(let failure) = ControlRequest.parse(#"{"command":"open","by":"\#(claimed)"}"#) else {
                Issue.record("\"by\": \"\(claimed)\" was accepted")
                continue
            }
            #expect(failure.message.contains("\"by\" may be"))
        }
    }
}
