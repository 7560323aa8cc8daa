import Foundation
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// `intercom ctl settings` beside a running daemon, against `intercom simulate-operator` over real
/// HTTP (the simulator answering as SmartYard's PHP): the change goes through the daemon's command
/// table to the operator's `address/intercom`, and `intercom settings`, asking the operator itself,
/// shows it. The rules themselves are tested on fakes (FlatSettingsCommandTests).
@Suite(.removesTestFolders) struct DaemonFlatSettingsTests {
    @Test func aCtlSettingsChangeReachesTheOperatorAndSettingsShowsIt() async throws {
        let simulator = try await SimulatorProcess.operator(["--no-camera"], prefix: "intercom-e2e-settings")
        try await withCleanup({ await simulator.stop() }) {
            let daemon = try DaemonProcess(config: DaemonProcess.operatorConfig(url: try simulator.operatorURL()), name: "settings")
            try await withCleanup({ _ = await daemon.stop() }) {
                try await daemon.waitUntilStarted()
                let login = try await daemon.loginToSimulatedOperator()
                #expect(login.status == 0, "\(login)")

                let set = try await daemon.run(["ctl", "settings", "home", "white_rabbit=5", "hidden_plog=on", "--json"])
                #expect(set.status == 0, "\(set)\n\(daemon.log)")
                let reply = try #require(try JSONSerialization.jsonObject(with: Data(set.stdout.utf8)) as? [String: Any], "\(set)")
                #expect(reply["white_rabbit"] as? Int == 5 && reply["hidden_plog"] as? Bool == true, "\(reply)")

                let shown = try await daemon.run(["settings", "home"])
                #expect(shown.status == 0, "\(shown)")
                #expect(shown.stdout.contains("white_rabbit  5 min") && shown.stdout.contains("hidden_plog   on"), "\(shown.stdout)")

                // Refused before the daemon is asked (usage), and by the daemon's operator part.
                let typo = try await daemon.run(["ctl", "settings", "home", "white_rabbit=4"])
                #expect(typo.status == 64 && typo.stderr.contains("white_rabbit takes minutes"), "\(typo)")
                let stranger = try await daemon.run(["ctl", "settings", "dacha", "cms=on"])
                #expect(stranger.status == 64 && stranger.stderr.contains("no [operator dacha]"), "\(stranger)")
            }
        }
    }
}
