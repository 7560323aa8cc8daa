import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Signals while the daemon carries several calls at once: a burst of SIGHUPs (a config management
/// tool reloading in a loop, with the file changing underneath) must keep every call, and SIGTERM
/// must end them all — each panel gets its BYE, each call its call_ended — and exit 0.
@Suite("faults: signals under load", .removesTestFolders) struct DaemonSignalLoadTests {
    static let calls = 4

    static func config(autoAnswer: String) -> String {
        """
        [sip]
        listen = udp:127.0.0.1:0

        [panel entrance]
        url = http://127.0.0.1:9
        match = sip:10000
        auto_answer = \(autoAnswer)
        """
    }

    @Test("4 calls: 10 SIGHUPs keep them all, SIGTERM ends them all with hangup and exits 0")
    func sighupKeepsCallsSigtermEndsThem() async throws {
        let daemon = try DaemonProcess(config: Self.config(autoAnswer: "on"), name: "signals")
        try await daemon.waitUntilStarted()
        // Four callers (100001…100004: liblinphone refuses a second call from a caller it is already
        // talking to with 486, as a panel makes one call at a time).
        let panels = try Sipp(scenario: BewardScenarios.panelCall(hangupAfter: .seconds(30), video: false, user: "10000[call_number]"),
                              name: "panels",
                              remote: try daemon.hostPort(), service: "resident", timeout: .seconds(40),
                              calls: Self.calls, rate: 20)
        try await withCleanup({ _ = await panels.stop() }) {
            guard await TestPatience.eventually(within: .seconds(15), every: .milliseconds(50), {
                daemon.names.filter({ $0 == "call_answered" }).count >= Self.calls
            }) else {
                throw HarnessError("only \(daemon.names.filter { $0 == "call_answered" }.count) of \(Self.calls) calls answered\n\(daemon.log)")
            }
            let callIDs = Set(daemon.events.filter { $0.name == "call_answered" }.compactMap { $0.string("call") })

            // Reloads back to back, the file changing between them.
            for round in 0..<10 {
                try Self.config(autoAnswer: round % 2 == 0 ? "2" : "on").write(to: daemon.configURL, atomically: true, encoding: .utf8)
                kill(daemon.process.pid, SIGHUP)
                try await Task.sleep(for: .milliseconds(30))
            }
            try await Task.sleep(for: .milliseconds(500))
            #expect(daemon.process.isRunning, "\(daemon.log)")
            #expect(!daemon.names.contains("call_ended"), "a reload dropped a call: \(daemon.events)")
            #expect(daemon.log.contains("SIGHUP: config reloaded"), "\(daemon.log)")
            let status = try await IntercomBinary.run(["ctl", "status", "--config", daemon.configURL.path], in: daemon.directory)
            for call in callIDs { #expect(status.stdout.contains("\"\(call)\""), "\(call) missing after the reloads: \(status.stdout)") }

            let clock = ContinuousClock()
            let stopping = clock.now
            kill(daemon.process.pid, SIGTERM)
            let exit = try await daemon.process.waitForExit(timeout: .seconds(8))
            let took = clock.now - stopping
            #expect(exit == 0 && !daemon.process.wasSignalled, "exit \(exit)\n\(daemon.log)")
            #expect(took < .seconds(5), "SIGTERM took \(took)")
            let ended = daemon.events.filter { $0.name == "call_ended" }
            #expect(Set(ended.compactMap { $0.string("call") }) == callIDs, "\(daemon.events)")
            #expect(ended.allSatisfy { $0.string("reason") == "hangup" }, "\(ended)")
            let result = await panels.stop()
            let byes = result.messages.components(separatedBy: "BYE sip:").count - 1
            #expect(byes >= Self.calls, "the panels got \(byes) BYEs for \(Self.calls) calls")
            print("signals under load: \(Self.calls) calls kept through 10 SIGHUPs; SIGTERM ended them and exited 0 in \(took)")
            DaemonEventChecks.expectWellFormed(daemon)
        }
    }
}
