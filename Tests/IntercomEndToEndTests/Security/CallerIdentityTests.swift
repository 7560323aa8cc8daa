import Foundation
import IntercomCore
@testable import IntercomSimulator
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Only the panel opens the door: the real daemon in guest mode, a simulated panel on 127.0.0.1,
/// and "another machine" on 127.0.0.2 that writes the panel's name into From and Contact.
@Suite("security: callers are known by their packets", .serialized, .removesTestFolders)
struct CallerIdentityTests {
    struct Setup {
        let daemon: DaemonProcess
        let panel: SimulatedPanel
        let panelEvents: EventRecorder<SimulatedPanelEvent>
        let dir: TestDirectory

        /// The daemon's Request-URI for a caller.
        var uri: String { get throws { "sip:resident@127.0.0.1:\(try daemon.port("udp"))" } }

        static func start(policy: String = "guest_until = 2099-01-01 00:00", extra: String = "") async throws -> Setup {
            let dir = try TestDirectory(prefix: "intercom-identity")
            let panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(
                user: "100001", dataDirectory: try dir.subdirectory("panel").path))
            let daemon = try DaemonProcess(config: DaemonProcess.simulatedPanelConfig(
                httpPort: panel.http.port, listen: "udp:127.0.0.1:0, tcp:127.0.0.1:0", entrance: policy + "\n" + extra),
                name: "identity")
            try await daemon.waitUntilStarted()
            return Setup(daemon: daemon, panel: panel, panelEvents: EventRecorder(panel.events), dir: dir)
        }

        func stop() async {
            _ = await daemon.stop()
            await panel.stop()
        }

        var doorsAtThePanel: Int {
            panelEvents.all.filter { if case .doorOpened = $0 { true } else { false } }.count
        }
    }

    @Test("an INVITE from 127.0.0.2 naming the panel gets 403 and opens nothing (UDP, TCP, with leading CRLFs); the panel's own call then opens the door")
    func forgedPanelCallsOpenNothing() async throws {
        try await withStaticPicture {
            let s = try await Setup.start()
            for (index, (tcp, prefix)) in [(false, ""), (false, "\r\n\r\n"), (true, ""), (true, "\r\n")].enumerated() {
                let port = try s.daemon.port(tcp ? "tcp" : "udp")
                let forger = try RawSIPPeer(localHost: "127.0.0.2", tcp: tcp, remotePort: port)
                try forger.send(forger.invite(service: "resident", remotePort: port, claimedUser: "100001",
                                              claimedHost: "127.0.0.1", callID: "forged-\(index)", prefix: prefix))
                let reply = await forger.receive(for: .seconds(2))
                let label = "\(tcp ? "TCP" : "UDP")\(prefix.isEmpty ? "" : " after CRLF")"
                #expect(reply.text.contains("SIP/2.0 403"), "\(label): expected 403, got:\n\(reply.text)\n\(s.daemon.log)")
                #expect(!reply.text.contains("SIP/2.0 200"), "\(label): a forged call was answered")
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(!s.daemon.names.contains("call_incoming"), "a forged call raised an event: \(s.daemon.events)")
            #expect(s.doorsAtThePanel == 0 && s.panel.http.requestCount("intercom_cgi?action=maindoor") == 0,
                    "a door request reached the panel")
            #expect(s.daemon.log.contains("claims to be panel entrance"), "the log names the impostor\n\(s.daemon.log)")
            #expect(s.daemon.log.contains("127.0.0.2"), "the log names the forger's address\n\(s.daemon.log)")

            // The real panel, right after: answered by guest mode, the door opens, the call ends.
            let outgoing = try await s.panel.ring(try s.uri)
            let answered = try await s.daemon.waitForEvent("call_answered", timeout: .seconds(10))
            #expect(answered.string("by") == "guest_mode" && answered.string("panel") == "entrance", "\(answered)")
            let door = try await s.daemon.waitForEvent("door_opened", timeout: .seconds(10))
            #expect(door.string("by") == "guest_mode" && door.fields["ok"] as? Bool == true, "\(door)")
            _ = try await s.panelEvents.wait("the door opens at the panel") { e -> Bool? in
                if case .doorOpened(let d) = e, d.door == .main { true } else { nil } }
            _ = try await s.daemon.waitForEvent("call_ended", timeout: .seconds(10))
            _ = try await s.panelEvents.wait("the panel's call ends") { e -> Bool? in
                if case .ended(outgoing, _, _) = e { true } else { nil } }
            let log = try await IntercomBinary.run(["log", "--json", "--config", s.daemon.configURL.path], in: s.daemon.directory)
            #expect(log.stdout.contains("\"by\":\"guest_mode\""), "the journal keeps what opened the door\n\(log.stdout)")
            await s.stop()
        }
    }

    @Test("a blind INVITE from the panel's own address is answered by guest mode, never ACKed, and opens nothing")
    func blindInviteOpensNothing() async throws {
        let s = try await Setup.start()
        let port = try s.daemon.port("udp")
        let blind = try RawSIPPeer(localHost: "127.0.0.1", tcp: false, remotePort: port)
        try blind.send(blind.invite(service: "resident", remotePort: port, claimedUser: "100001",
                                    claimedHost: "127.0.0.1", callID: "blind-1"))
        let reply = await blind.receive(for: .seconds(1))
        #expect(reply.text.contains("SIP/2.0 200"), "guest mode answers the panel's address\n\(reply.text)")
        let answered = try await s.daemon.waitForEvent("call_answered", timeout: .seconds(5))
        #expect(answered.string("by") == "guest_mode", "\(answered)")
        // No ACK, no RTP: after the confirmation wait the call is hung up, and nothing opened.
        let ended = try await s.daemon.waitForEvent("call_ended", timeout: .seconds(12))
        #expect(ended.string("call") == answered.string("call"), "\(ended)")
        #expect(!s.daemon.names.contains("door_opened"), "\(s.daemon.events)")
        #expect(s.panel.http.requestCount("intercom_cgi?action=maindoor") == 0, "a door request reached the panel")
        #expect(s.daemon.log.contains("was not confirmed"), "\(s.daemon.log)")
        await s.stop()
    }

    @Test("hostile INVITEs behind leading CRLFs are screened over UDP and TCP; the daemon lives and raises no event")
    func crlfPrefixedHostileInvites() async throws {
        let s = try await Setup.start(policy: "auto_answer = on")
        for tcp in [false, true] {
            let port = try s.daemon.port(tcp ? "tcp" : "udp")
            // A From display name of 1100 characters crashes liblinphone 5.1 if it ever parses it.
            let peer = try RawSIPPeer(localHost: "127.0.0.1", tcp: tcp, remotePort: port)
            try peer.send(peer.invite(service: "resident", remotePort: port, claimedUser: "100001", claimedHost: "127.0.0.1",
                                      callID: "hostile-\(tcp)", displayName: String(repeating: "d", count: 1100),
                                      prefix: "\r\n\r\n"))
            let reply = await peer.receive(for: .seconds(1))
            #expect(!reply.text.contains("SIP/2.0"), "\(tcp ? "TCP" : "UDP"): the screen should drop it unanswered\n\(reply.text)")
            if tcp { #expect(reply.closed, "over TCP the connection is closed") }
            #expect(s.daemon.process.isRunning, "the daemon died\n\(s.daemon.log)")
        }
        #expect(!s.daemon.names.contains("call_incoming"), "\(s.daemon.events)")
        #expect(s.daemon.process.isRunning)
        await s.stop()
    }

    @Test("a panel calling again ends its answered call only once the new call is confirmed; a forged INVITE from its address leaves the conversation alone")
    func panelCallingAgainReplacesItsCallOnceConfirmed() async throws {
        let s = try await Setup.start(policy: "auto_answer = on")
        let port = try s.daemon.port("udp")
        let first = try Sipp(scenario: BewardScenarios.panelCall(hangupAfter: .seconds(20), video: false), name: "first",
                             remote: "127.0.0.1:\(port)", service: "resident", timeout: .seconds(30))
        let firstCall = try await s.daemon.waitForEvent("call_answered", timeout: .seconds(10)).string("call")
        // A forged INVITE from the panel's address and user: it rings, is not answered by
        // auto_answer (that would put the conversation on hold), and ends nothing.
        let forger = try RawSIPPeer(localHost: "127.0.0.1", tcp: false, remotePort: port)
        try forger.send(forger.invite(service: "resident", remotePort: port, claimedUser: "100001",
                                      claimedHost: "127.0.0.1", callID: "forged-again"))
        let forgedCall = try await s.daemon.waitForEvent("call_incoming", timeout: .seconds(5)) { $0.string("call") != firstCall }
            .string("call")
        let reply = await forger.receive(for: .seconds(2))
        #expect(!reply.text.contains("SIP/2.0 200"), "the forged call was answered\n\(reply.text)")
        #expect(!s.daemon.events.contains { $0.name == "call_ended" && $0.string("call") == firstCall },
                "the forged INVITE ended the conversation\n\(s.daemon.log)")
        // The panel really calls again (it rebooted): its call rings (the forged one, unanswered,
        // is replaced at once); answered by hand and confirmed, it ends the first call.
        let second = try Sipp(scenario: BewardScenarios.panelCall(hangupAfter: .milliseconds(500), video: false), name: "second",
                              remote: "127.0.0.1:\(port)", service: "resident", timeout: .seconds(15))
        let secondCall = try await s.daemon.waitForEvent("call_incoming", timeout: .seconds(10)) {
            $0.string("call") != firstCall && $0.string("call") != forgedCall }.string("call")
        _ = try await s.daemon.waitForEvent("call_ended", timeout: .seconds(5)) { $0.string("call") == forgedCall }
        #expect(!s.daemon.events.contains { $0.name == "call_ended" && $0.string("call") == firstCall },
                "the first call ended before the new one was answered\n\(s.daemon.log)")
        let answer = try await s.daemon.run(["ctl", "answer", secondCall ?? "?"])
        #expect(answer.status == 0, "ctl answer: \(answer.stderr)")
        let firstEnded = try await s.daemon.waitForEvent("call_ended", timeout: .seconds(10)) { $0.string("call") == firstCall }
        #expect(firstEnded.string("reason") == "remote_hangup", "\(firstEnded)")
        let secondResult = try await second.finish(timeout: .seconds(20))
        #expect(secondResult.succeeded, "the second call must be answered and go through\n\(secondResult)\n\(s.daemon.log)")
        #expect(s.daemon.log.contains("is confirmed: ending its earlier call"), "\(s.daemon.log)")
        _ = await first.stop()
        await s.stop()
    }
}
