import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// A panel that loses power mid-call sends neither RTP nor BYE. Only the media timeout can end
/// such a call; without it the daemon would hold a dead call (and the resident's line) forever.
@Suite("faults: the caller vanishes mid-call", .removesTestFolders) struct DaemonVanishedCallerTests {
    static let mediaTimeout = 3

    @Test("no RTP and no BYE after the ACK: call_ended(error) within the media timeout, daemon still answers")
    func vanishedCallerEndsWithError() async throws {
        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:0
            media_timeout = \(Self.mediaTimeout)

            [panel entrance]
            url = http://127.0.0.1:9
            match = sip:100001@
            auto_answer = on
            """, name: "vanish")
        try await daemon.waitUntilStarted()

        // The panel answers nothing after its ACK: a long pause, then it is killed outright.
        let panel = try Sipp(scenario: FaultScenarios.silentCall(), name: "silent",
                             remote: try daemon.hostPort(), service: "resident", timeout: .seconds(30))
        let answered = try await daemon.waitForEvent("call_answered")
        let call = try #require(answered.string("call"))
        let clock = ContinuousClock()
        let answeredAt = clock.now
        // The ACK follows the 200 within milliseconds on loopback; let it arrive, then the panel is gone.
        try await Task.sleep(for: .milliseconds(300))
        panel.process.kill()
        _ = try? await panel.process.waitForExit(timeout: .seconds(5))

        let ended = try await daemon.waitForEvent("call_ended", timeout: .seconds(Self.mediaTimeout + 10)) {
            $0.string("call") == call
        }
        let elapsed = clock.now - answeredAt
        #expect(ended.string("reason") == "error", "\(ended)\n\(daemon.log)")
        #expect(daemon.log.contains("Media lost"), "the log should say why the call failed\n\(daemon.log)")
        // Not before the timeout (it was the silence that ended it), and not long after.
        #expect(elapsed >= .seconds(Self.mediaTimeout) - .milliseconds(500), "ended after \(elapsed)")
        #expect(elapsed <= .seconds(Self.mediaTimeout + 5), "ended after \(elapsed)")
        print("vanished caller: call_ended(\(ended.string("reason") ?? "?")) \(elapsed) after call_answered "
              + "(media_timeout = \(Self.mediaTimeout) s, duration_s \(ended.number("duration_s") ?? -1))")

        // The daemon is still in business.
        try await FaultChecks.expectAnswersAPanelCall(daemon)
        DaemonEventChecks.expectWellFormed(daemon)
        #expect(await daemon.stop() == 0, "\(daemon.log)")
    }
}
