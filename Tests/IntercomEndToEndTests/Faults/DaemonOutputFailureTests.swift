import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// The daemon outlives its output: a full stderr (`2>/dev/full`) drops log lines, a closed stdout
/// (`--events json | head -1`, a journald restart) stops the event stream; calls are still answered
/// and journaled, and the control socket still answers.
@Suite("faults: stdout and stderr failing", .removesTestFolders) struct DaemonOutputFailureTests {
    static let config = DaemonProcess.autoAnsweringPanelConfig()

    /// One auto-answered panel call; then the journal must hold it, answered by auto.
    static func callIsAnsweredAndJournaled(_ daemon: DaemonProcess) async throws {
        let call = try await Sipp.run(scenario: BewardScenarios.panelCall(hangupAfter: .milliseconds(600), video: false),
                                      name: "panel", remote: try daemon.hostPort(), service: "resident", timeout: .seconds(10))
        #expect(call.succeeded, "\(call)\n\(daemon.log)")
        #expect(daemon.process.isRunning, "\(daemon.log)")
        var entries: [[String: Any]] = []
        try await TestPatience.eventually(within: .seconds(5), every: .milliseconds(100)) {
            let log = try await daemon.run(["log", "--json"])
            entries = log.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            return entries.contains(where: { $0["outcome"] as? String == "remote_hangup" })
        }
        #expect(entries.contains { $0["outcome"] as? String == "remote_hangup" && $0["answered_by"] as? String == "auto" },
                "\(entries)\n\(daemon.log)")
        let status = try await daemon.run(["ctl", "status"])
        #expect(status.status == 0 && status.stdout.contains("\"calls\""), "\(status)")
    }

    @Test("daemon 2>/dev/full: no crash; calls answered and journaled; ctl answers")
    func stderrFull() async throws {
        let daemon = try DaemonProcess(config: Self.config, extraArguments: ["--log-level", "debug"], name: "devfull",
                                       shell: #"exec "$0" "$@" 2>/dev/full"#)
        try await daemon.waitUntilStarted()
        try await Self.callIsAnsweredAndJournaled(daemon)
        #expect(daemon.names.contains("call_answered"), "\(daemon.log)")
        #expect(!daemon.process.wasSignalled && daemon.process.isRunning, "\(daemon.log)")
        await daemon.stop()
        #expect(daemon.process.exitStatus == 0, "\(daemon.log)")
    }

    @Test("daemon --events json | head -1: stops printing, says so once, goes on answering")
    func stdoutClosed() async throws {
        let daemon = try DaemonProcess(config: Self.config, name: "headone",
                                       shell: #""$0" "$@" | head -1"#)
        try await daemon.waitUntilStarted()
        try await Self.callIsAnsweredAndJournaled(daemon)
        try await Self.callIsAnsweredAndJournaled(daemon)
        #expect(daemon.names == ["started"], "\(daemon.log)")
        let notes = daemon.process.stderr.components(separatedBy: "broken pipe").count - 1
        #expect(notes == 1, "\(daemon.log)")
        await daemon.stop()
    }
}
