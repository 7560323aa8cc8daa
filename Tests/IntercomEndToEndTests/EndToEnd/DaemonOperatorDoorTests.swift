import Foundation
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// An operator's door through the daemon: `intercom ctl open home:1:0` against `intercom
/// simulate-operator` (whose own simulated panel must see `maindoor`), the `door_opened` event with
/// `method: operator` on the daemon's output and on `ctl events`, the journal's entry, and the
/// one-line error before the login.
@Suite(.removesTestFolders) struct DaemonOperatorDoorTests {
    @Test func ctlOpensAnOperatorDoor() async throws {
        let simulator = try await SimulatorProcess.operator(prefix: "intercom-e2e-opsim")
        try await withCleanup({ await simulator.stop() }) {
            let url = try simulator.operatorURL()
            let daemon = try DaemonProcess(config: DaemonProcess.operatorConfig(url: url), name: "operator")
            try await withCleanup({ _ = await daemon.stop() }) {
                try await daemon.waitUntilStarted()
                let environment = try IntercomBinary.environment(in: daemon.directory)

                let both = try await daemon.run(["ctl", "open", "home:1:0", "--panel", "entrance"])
                #expect(both.status == 64 && both.stderr.contains("not both"), "\(both)")
                let early = try await daemon.run(["ctl", "open", "home:1:0"])
                #expect(early.status != 0 && early.stderr.contains("not logged in to home; run 'intercom login home'"), "\(early)")

                let login = try await daemon.loginToSimulatedOperator()
                #expect(login.status == 0, "\(login)")

                let events = try Subprocess(try IntercomBinary.path(), ["ctl", "events", "--config", daemon.configURL.path],
                                            name: "ctl-events", environment: environment, logDirectory: daemon.directory.url)
                try await withCleanup({ await events.stop() }) {
                    try await events.waitForOutput(containing: "\"registration\"", in: .stdout)
                    let open = try await daemon.run(["ctl", "open", "home:1:0"])
                    #expect(open.status == 0 && open.stdout.contains("\"door\":\"home:1:0\""), "\(open)\n\(daemon.log)")
                    try await simulator.waitForOutput(containing: "door opened: main", timeout: .seconds(10))
                    let opened = try await daemon.waitForEvent("door_opened") { ($0["ok"] as? Bool) == true }
                    #expect(opened.string("method") == "operator" && opened.string("door") == "home:1:0"
                            && opened.string("panel") == "home" && opened.string("by") == "ctl", "\(opened)")
                    try await events.waitForOutput(containing: "\"method\":\"operator\"", in: .stdout, timeout: .seconds(5))
                }
                let log = try await daemon.run(["log", "--local", "--json"])
                #expect(log.stdout.contains("home:1:0") && log.stdout.contains("operator"), "\(log)")
            }
        }
    }
}
