import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// A Beward-like panel (sipp: PCMA + telephone-event + H.264 offer, From 100001) calls the real
/// `intercom daemon` directly over loopback UDP.
@Suite("daemon: sipp panel calls", .removesTestFolders) struct DaemonPanelCallTests {
    static func config(autoAnswer: String) -> String {
        """
        [sip]
        listen = udp:127.0.0.1:0, tcp:127.0.0.1:0
        unknown_callers = reject

        [panel entrance]
        url = http://127.0.0.1:9
        match = sip:100001@
        auto_answer = \(autoAnswer)
        """
    }

    @Test("panel call is auto-answered; incoming, answered, ended(remote_hangup) in order")
    func autoAnsweredPanelCall() async throws {
        let daemon = try DaemonProcess(config: Self.config(autoAnswer: "on"), name: "auto")
        let started = try await daemon.waitUntilStarted()
        #expect(started.string("version")?.isEmpty == false, "\(started)")
        #expect(daemon.listen.contains { $0.hasPrefix("udp:127.0.0.1:") } && daemon.listen.contains { $0.hasPrefix("tcp:127.0.0.1:") },
                "\(daemon.listen)")

        let panel = try await Sipp.run(
            scenario: BewardScenarios.panelCall(hangupAfter: .seconds(2)), name: "panel",
            remote: try daemon.hostPort(), service: "resident", timeout: .seconds(20))
        #expect(panel.succeeded, "\(panel)\n\(daemon.log)")

        let (incoming, answered, ended) = try await DaemonEventChecks.expectAutoAnsweredCall(
            daemon, panel: "entrance", from: "sip:100001@")
        #expect((ended.number("duration_s") ?? 0) > 0, "\(ended)")
        for event in [answered, ended] {
            #expect(event.string("panel") == "entrance" && event.string("from") == incoming.string("from"), "\(event)")
        }

        let order = daemon.names.filter { ["started", "call_incoming", "call_answered", "call_ended"].contains($0) }
        #expect(order == ["started", "call_incoming", "call_answered", "call_ended"], "\(daemon.events)")
        DaemonEventChecks.expectWellFormed(daemon)

        let status = await daemon.stop()
        #expect(status == 0, "SIGTERM should end the daemon with 0\n\(daemon.log)")
    }

    @Test("a caller matching no panel gets 403 and raises no event")
    func unknownCallerRejected() async throws {
        let daemon = try DaemonProcess(config: Self.config(autoAnswer: "on"), name: "reject")
        try await daemon.waitUntilStarted()
        let stranger = try await Sipp.run(
            scenario: BewardScenarios.expectRejected(user: "666"), name: "stranger",
            remote: try daemon.hostPort(), service: "resident", timeout: .seconds(10))
        #expect(stranger.succeeded, "\(stranger)\n\(daemon.log)")
        #expect(stranger.messages.contains("SIP/2.0 403"), "expected a 403\n\(stranger)")
        // Any event would have been printed before the 403 went out; leave a moment for the pipe anyway.
        try await Task.sleep(for: .milliseconds(300))
        #expect(!daemon.names.contains("call_incoming"), "\(daemon.events)")
        #expect(daemon.names.allSatisfy { !DaemonEventChecks.callEvents.contains($0) }, "\(daemon.events)")
        DaemonEventChecks.expectWellFormed(daemon)
        await daemon.stop()
    }

    @Test("panel cancels before anyone answers: call_ended missed")
    func cancelBeforeAnswerIsMissed() async throws {
        let daemon = try DaemonProcess(config: Self.config(autoAnswer: "off"), name: "missed")
        try await daemon.waitUntilStarted()
        let panel = try await Sipp.run(
            scenario: BewardScenarios.panelCallCancelled(after: .seconds(1)), name: "cancel",
            remote: try daemon.hostPort(), service: "resident", timeout: .seconds(15))
        #expect(panel.succeeded, "\(panel)\n\(daemon.log)")
        let incoming = try await daemon.waitForEvent("call_incoming")
        #expect(incoming.string("panel") == "entrance", "\(incoming)")
        let call = try #require(incoming.string("call"))
        let ended = try await daemon.waitForEvent("call_ended") { $0.string("call") == call }
        #expect(ended.string("reason") == "missed", "\(ended)")
        #expect(!daemon.names.contains("call_answered"), "\(daemon.events)")
        DaemonEventChecks.expectWellFormed(daemon)
        await daemon.stop()
    }

    @Test("SIGTERM during an answered call: the call ends as hangup, the daemon exits 0")
    func sigtermEndsCallInProgress() async throws {
        let daemon = try DaemonProcess(config: Self.config(autoAnswer: "on"), name: "sigterm")
        try await daemon.waitUntilStarted()
        // The panel would hang up only after 10 s; the daemon is stopped long before.
        let panel = try Sipp(
            scenario: BewardScenarios.panelCall(hangupAfter: .seconds(10)), name: "long-call",
            remote: try daemon.hostPort(), service: "resident", timeout: .seconds(15))
        let answered = try await daemon.waitForEvent("call_answered")
        let call = try #require(answered.string("call"))
        try await Task.sleep(for: .milliseconds(300))
        kill(daemon.process.pid, SIGTERM)
        let status = try await daemon.process.waitForExit(timeout: .seconds(5))
        #expect(status == 0 && !daemon.process.wasSignalled, "\(daemon.log)")
        let ended = try #require(daemon.events.first { $0.name == "call_ended" && $0.string("call") == call },
                                 "no call_ended before exit: \(daemon.events)")
        #expect(ended.string("reason") == "hangup", "\(ended)")
        // The panel was told: a BYE reached it (sipp then fails its own script, which is expected).
        let result = await panel.stop()
        #expect(result.messages.contains("BYE sip:"), "the panel got no BYE\n\(result)")
        DaemonEventChecks.expectWellFormed(daemon)
    }
}
