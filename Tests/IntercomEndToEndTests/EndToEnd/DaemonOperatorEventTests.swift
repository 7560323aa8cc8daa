import Foundation
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The operator's log and inbox as daemon events, against `intercom simulate-operator`: with
/// `log_interval = 1`, the first round after the login only copies the log (no event for the
/// history) and reports the unread message (`operator_message`); a call the simulator then logs
/// (SIGUSR2) is an `operator_event` on stdout within the interval plus 2 s, with the door's id,
/// `who` and the kept preview's path, and runs `on_operator_event`; `ctl status` shows the
/// unread count, which `intercom inbox` brings to 0 by the next round.
@Suite(.removesTestFolders) struct DaemonOperatorEventTests {
    @Test func newLogEntryIsAnOperatorEventAndTheInboxIsCounted() async throws {
        let simulator = try await SimulatorProcess.operator(["--no-camera", "--message", "Hello from the operator"],
                                                            prefix: "intercom-e2e-opevents")
        let hookDirectory = try TestDirectory(prefix: "intercom-e2e-opevents-hook")
        let hookOutput = hookDirectory.file("hook.out")
        let hook = hookDirectory.file("hook.sh")
        try "#!/bin/sh\nprintf '%s %s\\n' \"$1\" \"$INTERCOM_JSON\" >> '\(hookOutput.path)'\n".write(to: hook, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: hook.path)
        try await withCleanup({ await simulator.stop() }) {
            let url = try simulator.operatorURL()
            let daemon = try DaemonProcess(config: DaemonProcess.operatorConfig(
                url: url, operatorLines: "log_interval = 1", more: "[hooks]\non_operator_event = \(hook.path)\n"), name: "opevents")
            try await withCleanup({ _ = await daemon.stop() }) {
                try await daemon.waitUntilStarted()
                let login = try await daemon.loginToSimulatedOperator()
                #expect(login.status == 0, "\(login)")
                // An opening before the daemon's first round: history, copied without an event.
                #expect(try await daemon.run(["open", "home:1:0"]).status == 0)
                kill(daemon.process.pid, SIGHUP)

                let message = try await daemon.waitForEvent("operator_message")
                #expect(message.string("operator") == "home" && message.number("unread") == 1, "\(message)")
                try await TestPatience.poll("ctl status shows 1 unread") {
                    await unread(daemon) == 1
                }

                let clock = ContinuousClock()
                let logged = clock.now
                simulator.signal(SIGUSR2)  // the simulator logs an unanswered call at once
                let event = try await daemon.waitForEvent("operator_event", timeout: .seconds(10))
                let latency = clock.now - logged
                #expect(latency <= .seconds(3), "a new entry took \(latency) to become an event (log_interval 1 s + 2 s)")
                #expect(event.string("operator") == "home" && event.string("kind") == "call_missed"
                        && event.string("door") == "home:1:0" && event.string("who") == "call", "\(event)")
                #expect(event.string("camera") == "home:cam:1", "the camera that saw the entry, as plog names it: \(event)")
                let picture = try #require(event.string("picture"), "\(event)")
                #expect(FileManager.default.fileExists(atPath: picture), "\(picture)")
                // The opening made before the first round was history: no event for it.
                #expect(!daemon.events.contains { $0.name == "operator_event" && $0.string("kind") == "opened_by_app" },
                        "\(daemon.names)")

                try await TestPatience.poll("the hook ran") {
                    ((try? String(contentsOf: hookOutput, encoding: .utf8)) ?? "").contains(#""kind":"call_missed""#)
                }
                let hookLine = try String(contentsOf: hookOutput, encoding: .utf8)
                #expect(hookLine.hasPrefix("operator_event {"), "\(hookLine)")

                let inbox = try await daemon.run(["inbox"])
                #expect(inbox.status == 0 && inbox.stdout.contains("Hello from the operator"), "\(inbox)")
                try await TestPatience.poll("ctl status shows the inbox read") {
                    await unread(daemon) == 0
                }
            }
        }
    }

    /// `home`'s unread count in `ctl status`.
    private func unread(_ daemon: DaemonProcess) async -> Int? {
        guard let status = try? await daemon.run(["ctl", "status"]),
              let object = try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any],
              let operators = object["operators"] as? [[String: Any]] else { return nil }
        return operators.first { $0["name"] as? String == "home" }?["unread"] as? Int
    }
}
