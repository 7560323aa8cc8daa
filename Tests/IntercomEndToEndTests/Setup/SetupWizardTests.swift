import Foundation
import IntercomPhoneTestSupport
import Testing
import IntercomSimulator
import IntercomTestSupport

/// `intercom setup` driven in tmux against two simulated panels on loopback (never the local
/// network: `--scan` names them): the config it writes passes `config --check` and takes a call.
@Suite("setup wizard", .removesTestFolders)
struct SetupWizardTests {
    @Test("finds the panels, tries the last panel's password first and asks only where it is refused, writes dial = and a 0600 config that checks and receives a call")
    func wizardWritesAWorkingConfig() async throws {
        let dir = try TestDirectory(prefix: "setup")
        // The porch has a camera over RTSP and names its SIP account; the gate has neither (its
        // sip_cgi account is empty), and shares the porch's address, so its number is asked.
        let porch = try await SimulatedPanel.start(options: SimulatedPanelOptions(rtspPort: 0), sip: SimulatedPanelSIPOptions(
            user: "100001", dataDirectory: try dir.subdirectory("porch").path))
        let gate = try await SimulatedPanel.start(options: SimulatedPanelOptions(password: "secret", sipUser: ""),
                                                  sip: SimulatedPanelSIPOptions(user: "100002", dataDirectory: try dir.subdirectory("gate").path))
        // The garden shares the gate's password (a fleet's login, issue 38): tried there, not asked.
        let garden = try await SimulatedPanel.start(options: SimulatedPanelOptions(password: "secret", sipUser: "100003"),
                                                    sip: SimulatedPanelSIPOptions(user: "100003", dataDirectory: try dir.subdirectory("garden").path))
        let port = try FreePort.udpAndTCP()
        let config = dir.file("config.ini").path
        let nobody = try FreePort.udpAndTCP()
        var env: [String: String] = ["TERM": "tmux-256color"]
        for (key, value) in try IntercomBinary.environment(in: dir) { if let value { env[key] = value } }
        let scan = [porch.http.baseURL, gate.http.baseURL, garden.http.baseURL].map { $0.replacingOccurrences(of: "http://", with: "") } + ["127.0.0.1:\(nobody)"]
        let command = "env -u INTERCOM_CONFIG '\(try IntercomBinary.path())' setup --scan \(scan.joined(separator: ","))"
            + " --listen udp:127.0.0.1:\(port) --config '\(config)'; echo SETUP-EXIT=$?; sleep 30"
        let tmux = try await Tmux(command: command, width: 120, height: 40, environment: env)
        var daemon: DaemonProcess?
        try await withCleanup({
            if let daemon { _ = await daemon.stop() }
            await tmux.kill()
            await porch.stop()
            await gate.stop()
            await garden.stop()
        }) {
            /// Waits until `prompt` is on the screen `count` times, then types `text` and Enter.
            func answer(_ prompt: String, count: Int = 1, _ text: String) async throws -> String {
                var screen = ""
                try await TestPatience.eventually(within: .seconds(20), every: .milliseconds(100)) {
                    screen = try await tmux.capture()
                    return screen.components(separatedBy: prompt).count - 1 >= count
                }
                guard screen.components(separatedBy: prompt).count - 1 >= count else {
                    throw HarnessError("no prompt '\(prompt)' (#\(count)) on the screen:\n\(screen)")
                }
                if !text.isEmpty { try await tmux.sendLiteral(text) }
                try await tmux.sendKeys("Enter")
                return screen
            }
            let listing = try await tmux.waitForScreen(containing: "found 3 panel(s)")
            #expect(!listing.contains("127.0.0.1:\(nobody)"), "a closed port counted as a panel: \(listing)")
            _ = try await answer("name [entrance]:", "porch")
            _ = try await answer("user [admin]:", "")
            _ = try await answer("password (empty skips this panel):", "admin")
            let second = try await answer("name [panel2]:", "gate")
            #expect(second.contains("ok: DKS15120"), "the porch's model was shown: \(second)")
            // Read from the panel, not asked (issue 25).
            #expect(second.contains("calls come from SIP user 100001 (its SIP settings)"), "\(second)")
            let rtsp = try #require(porch.rtsp).url()
            #expect(second.contains("camera: \(rtsp) answers with this user and password (rtsp)"), "\(second)")
            _ = try await answer("user [admin]:", count: 2, "")
            // The porch's password is tried at the gate first, refused, then asked.
            let refused = try await answer("password (empty skips this panel):", count: 2, "wrong")
            #expect(refused.contains("with the password of porch; type this panel's"), "\(refused)")
            _ = try await answer("password (empty skips this panel):", count: 3, "secret")
            let done = try await answer("porch answers at 127.0.0.1 too: which number does this panel call from?", "100002")
            #expect(done.contains("camera: the panel's RTSP is switched off (RtspSwitch=close)"), "\(done)")
            #expect(done.contains("try again"), "the refused password was reported: \(done)")
            _ = try await answer("name [panel3]:", "garden")
            _ = try await answer("user [admin]:", count: 3, "")
            let fleet = try await tmux.waitForScreen(containing: "the password of gate is accepted here too")
            let atGarden = fleet.components(separatedBy: "panel 3 of 3").last ?? ""
            #expect(!atGarden.contains("password (empty skips this panel):"), "asked again at the garden:\n\(fleet)")
            #expect(!fleet.contains("secret") && !fleet.contains("wrong"), "a password was echoed:\n\(fleet)")
            let end = try await tmux.waitForScreen(containing: "SETUP-EXIT=0")
            #expect(end.contains("gate (\(gate.http.baseURL)): call sip:intercom@127.0.0.1:\(port) over UDP"), "\(end)")

            var status = stat()
            #expect(stat(config, &status) == 0 && status.st_mode & 0o777 == 0o600, "the config is not 0600")
            let check = try await IntercomBinary.run(["config", "--check", "--config", config], in: dir)
            #expect(check.status == 0 && check.stdout.contains("3 panel(s)"), "\(check)")
            let text = try String(contentsOfFile: config, encoding: .utf8)
            #expect(text.contains("[panel gate]\nurl = \(gate.http.baseURL)\nuser = admin\npassword = secret\nmatch = sip:100002@\ndial = sip:100002@127.0.0.1\n"
                + "# the panel's RTSP is switched off (RtspSwitch=close)\nrtsp = off"), "\(text)")
            #expect(text.contains("[panel porch]\nurl = \(porch.http.baseURL)\nuser = admin\npassword = admin\nmatch = sip:100001@\ndial = sip:100001@127.0.0.1\nrtsp = \(rtsp)"),
                    "\(text)")

            // The config takes a call: the gate rings the daemon started from it.
            let running = try DaemonProcess(config: text, name: "setup")
            daemon = running
            try await running.waitUntilStarted()
            _ = try await gate.ring("sip:intercom@127.0.0.1:\(port)")
            let incoming = try await running.waitForEvent("call_incoming", timeout: .seconds(15))
            #expect(incoming.string("panel") == "gate", "\(incoming)")
        }
    }
}
