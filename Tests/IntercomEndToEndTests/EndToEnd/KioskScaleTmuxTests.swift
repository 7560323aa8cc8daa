import Foundation
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// The kiosk at full size through the real binaries: one `simulate-panel --count 64` process, the
/// kiosk in tmux at 160×48 (42 tiles a page, the rest listed), one panel rings from the second page
/// and is a tile at once; the name filter finds a panel; Esc clears it.
@Suite("kiosk with 64 panels in tmux", .serialized, .removesTestFolders) struct KioskScaleTmuxTests {
    @Test func theRingingPanelIsShownAtOnceAndTheFilterFindsOne() async throws {
        let dir = try TestDirectory(prefix: "intercom-kiosk-64")
        let port = try FreePort.udpAndTCP()
        let fleet = try await SimulatorProcess.panel(["--count", "64", "--events", "json", "--call", "sip:intercom@127.0.0.1:\(port)"],
                                                     in: dir, stdin: true, timeout: .seconds(40))
        try await withCleanup({ await fleet.stop(grace: .seconds(15)) }) {
            let out = fleet.stdout
            let panels = Self.objects(out).filter { $0["event"] as? String == "panel" }
            #expect(panels.count == 64)
            var config = "[sip]\nlisten = udp:127.0.0.1:\(port)\n\n"
            for panel in panels {
                let name = panel["name"] as? String ?? "", from = panel["from"] as? String ?? ""
                let user = from.dropFirst("sip:".count).prefix { $0 != "@" }
                config += "[panel \(name)]\nurl = \(panel["url"] as? String ?? "")\nuser = admin\npassword = admin\nmatch = sip:\(user)@\n\n"
            }
            let file = try IntercomBinary.writeConfig(config, in: dir)
            var env: [String: String] = ["TERM": "tmux-256color", "COLORTERM": "truecolor"]
            for (key, value) in try IntercomBinary.environment(in: dir) { if let value { env[key] = value } }
            let command = "env -u NO_COLOR -u INTERCOM_CONFIG '\(try IntercomBinary.path())' tui --kiosk --config '\(file.path)'"
                + " --no-bell --no-notify --no-ring --log-level info; echo TUI-EXIT=$?; sleep 30"
            let tmux = try await Tmux(command: command, width: 160, height: 48, environment: env)
            try await withCleanup({ await tmux.kill() }) {
                let first: String
                do {
                    first = try await tmux.waitForScreen(containing: "page 1/2")
                } catch {
                    // Once (a quiet run, 2026-12-02 run 3) the screen stayed empty for 30 s: say what the
                    // kiosk logged, what the panels printed and where each thread of the pane's processes
                    // was, so the next time tells why. `--log-level info` above: the screen's own engine
                    // logs only errors otherwise, and its start is the question; what it logs before the
                    // screen opens stays on the pane, which the timeout prints.
                    let log = (try? String(contentsOfFile: dir.path + "/state/intercom/tui.log", encoding: .utf8)) ?? "(no tui.log)"
                    let stacks = await tmux.backtraces()
                    throw HarnessError("\(error)\ntui.log:" + HarnessError.tail(log) + "\npanels' log:" + HarnessError.tail(fleet.log)
                                       + "\nthe pane's processes:" + stacks)
                }
                #expect(first.contains("1. panel-01") && first.contains("64. panel-64"), "tiles and the list:\n\(first)")
                #expect(!first.contains("50. panel-50 RINGING"))
                // Idle first: the 64 panels' first snapshots and alarm streams have come in.
                try await Task.sleep(for: .seconds(2))
                // This run's own pace: a key's way to the screen and back (tmux, the kiosk's turn, a
                // capture), measured the way the ring is below. On a loaded machine both stretch alike.
                let pressed = Date()
                try await tmux.sendKeys("/")
                let prompted = try await Self.pollScreen(tmux, timeout: TestPatience.condition) { $0.contains("filter panels by name: _") }
                let keyMilliseconds = Int(prompted.timeIntervalSince(pressed) * 1000)
                try await tmux.sendKeys("Escape")
                _ = try await Self.pollScreen(tmux, timeout: TestPatience.condition) { !$0.contains("filter panels by name") }

                // panel-50 is in the list, not a tile: ringing, it must become a tile at once (the
                // page's last: the other tiles keep their places), its title at the tiles' left edge
                // or between them, not in the list column on the right (column 134).
                try fleet.write(line: "ring panel-50")
                let seen = try await Self.pollScreen(tmux, timeout: TestPatience.condition) { screen in
                    screen.split(separator: "\n").contains { line in
                        guard let at = line.range(of: "50. panel-50 RINGING") else { return false }
                        return line.distance(from: line.startIndex, to: at.lowerBound) < 130
                    }
                }
                let sent = try await Self.callingTime(fleet, panel: "panel-50")
                let milliseconds = Int(seen.timeIntervalSince(sent) * 1000)
                // Measured from the panel's "calling" (the INVITE goes out on loopback) to the tmux capture
                // that first shows the tile. Printed, not asserted: the figure belongs to `make bench` (ScaleBench,
                // BENCHMARKS.md "Many panels"); under `stress-ng` beside two shards it measured 2307 ms with keys
                // taking 569 ms, where a quiet run shows 56–178 ms. What this test holds is where the tile goes.
                print("kiosk-64: INVITE → ringing tile on screen \(milliseconds) ms (a key's round trip: \(keyMilliseconds) ms)")
                try fleet.write(line: "hangup panel-50")
                _ = try await Self.pollScreen(tmux, timeout: TestPatience.condition) { !$0.contains("RINGING") }

                // The filter: `/`, a name in another case, Enter keeps it.
                try await tmux.sendKeys("/")
                try await tmux.sendLiteral("PANEL-37")
                _ = try await tmux.waitForScreen(containing: "filter panels by name: PANEL-37_")
                try await tmux.sendKeys("Enter")
                let filtered = try await tmux.waitForScreen(containing: "filter 'PANEL-37' (1)")
                #expect(filtered.contains("37. panel-37") && !filtered.contains("panel-36"), "\(filtered)")
                // `/` again and Esc: every panel is back.
                try await tmux.sendKeys("/")
                _ = try await tmux.waitForScreen(containing: "filter panels by name: PANEL-37_")
                try await tmux.sendKeys("Escape")
                let cleared = try await tmux.waitForScreen(containing: "page 1/2")
                #expect(cleared.contains("1. panel-01") && !cleared.contains("filter '"), "\(cleared)")
                // `v`: one line per panel, every one of the 64 on one page.
                try await tmux.sendKeys("v")
                let list = try await tmux.waitForScreen(containing: "page 1/1")
                #expect(list.contains("46. panel-46") && list.contains("64. panel-64"), "\(list)")
            }
        }
    }

    /// Captures as fast as tmux answers until `done`; the moment of the first capture that satisfied it.
    private static func pollScreen(_ tmux: Tmux, timeout: Duration, _ done: (String) -> Bool) async throws -> Date {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var screen = ""
        while ContinuousClock.now < deadline {
            screen = try await tmux.capture()
            if done(screen) { return Date() }
        }
        throw HarnessError.timeout("the kiosk's screen", after: timeout, log: screen)
    }

    /// When the simulator said the panel's call went out (its "calling" line, to the millisecond).
    private static func callingTime(_ fleet: SimulatorProcess, panel: String) async throws -> Date {
        let out = try await fleet.waitForOutput(containing: "\"event\":\"calling\"", in: .stdout)
        let line = try #require(objects(out).first { $0["event"] as? String == "calling" && $0["panel"] as? String == panel })
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return try #require(formatter.date(from: line["time"] as? String ?? ""), "\(line)")
    }

    private static func objects(_ out: String) -> [[String: Any]] {
        out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}
