import Foundation
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// linphonec (a second liblinphone UA) plays the panel: it calls the daemon, sends a door digit,
/// and hangs up.
@Suite("daemon: linphonec as the panel", .removesTestFolders) struct DaemonLinphonecTests {
    @Test("linphonec calls, the daemon auto-answers, DTMF 1 arrives, linphonec hangs up: remote_hangup")
    func linphonecPanelCall() async throws {
        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:0, tcp:127.0.0.1:0

            [panel door]
            url = http://127.0.0.1:9
            match = sip:door@
            auto_answer = on
            """, extraArguments: ["--log-level", "debug"], name: "linphonec")
        try await daemon.waitUntilStarted()
        let panel = try Linphonec(user: "door")
        try await panel.start()
        try panel.call("sip:resident@\(try daemon.hostPort())")
        try await panel.waitForConnected(timeout: .seconds(10))

        let incoming = try await daemon.waitForEvent("call_incoming")
        #expect(incoming.string("panel") == "door", "\(incoming)")
        #expect(incoming.string("from")?.hasPrefix("sip:door@") == true, "\(incoming)")
        let call = try #require(incoming.string("call"))
        let answered = try await daemon.waitForEvent("call_answered") { $0.string("call") == call }
        #expect(answered.string("by") == "auto", "\(answered)")

        // Received DTMF is not an event; the daemon logs it at debug level.
        try panel.dtmf("1")
        try await daemon.process.waitForOutput(containing: "call \(call): DTMF 1 received", in: .stderr,
                                               timeout: .seconds(5))
        try panel.terminate()
        try await panel.waitForEnded()
        let ended = try await daemon.waitForEvent("call_ended") { $0.string("call") == call }
        #expect(ended.string("reason") == "remote_hangup", "\(ended)")
        #expect((ended.number("duration_s") ?? 0) > 0, "\(ended)")
        DaemonEventChecks.expectWellFormed(daemon)
        try await panel.quit()
        await daemon.stop()
    }
}
