import Foundation
import Testing
import IntercomTestSupport

/// `intercom demo` in tmux: its two `intercom-sim` children (the simulated panel and operator), the
/// operator door it logs in to, the operator's camera, and nothing left running or on disk after q.
@Suite("demo in tmux", .serialized)
struct DemoTmuxTests {
    /// The demo's simulators: processes started in this test's HOME that run simulate-panel or -operator.
    static func simulators(in dir: TestDirectory) -> [LiveProcess] {
        LiveProcess.all(withEnvironment: "HOME", equalTo: dir.path).filter { process in
            process.arguments.contains("simulate-panel") || process.arguments.contains("simulate-operator")
        }
    }

    @Test func demoStartsBothSimulatorsOpensTheOperatorDoorAndLeavesNothingBehind() async throws {
        let dir = try TestDirectory(prefix: "intercom-demo")
        let tmp = try dir.subdirectory("tmp")
        var env: [String: String] = ["TERM": "tmux-256color", "TMPDIR": tmp.path]
        for (key, value) in try IntercomBinary.environment(in: dir) { if let value { env[key] = value } }
        let binary = try IntercomBinary.path()
        // The panel rings once: its ring again 5 s after each call (the default) took the screen while the
        // test pressed Tab towards the operator's door (a test racing the product's own timer).
        let tmux = try await Tmux(command: "env -u INTERCOM_CONFIG '\(binary)' demo --no-bell --no-notify --ring-every 600; echo DEMO-EXIT=$?; sleep 30",
                                  width: 120, height: 40, environment: env)
        try await withCleanup({ await tmux.kill() }) {
            _ = try await tmux.waitForScreen(containing: "PORCH IS CALLING")
            let running = Self.simulators(in: dir)
            #expect(running.contains { $0.arguments.contains("simulate-panel") }, "children: \(running)")
            let op = try #require(running.first { $0.arguments.contains("simulate-operator") }, "children: \(running)")
            // It drives the demo's own panel, with the panel's admin user.
            #expect(op.arguments.contains("--panel") && op.arguments.contains("--panel-user"), "\(op)")

            // The demo's private folder: its config names the operator, its state folder keeps the token.
            let demo = try #require(try FileManager.default.contentsOfDirectory(atPath: tmp.path)
                .first { $0.hasPrefix("intercom-demo.") }, "no demo folder in \(tmp.path)")
            let work = "\(tmp.path)/\(demo)"
            // The demo names its folder on the screen, for `--config FOLDER/config.ini` (issue 25).
            let titled = try await tmux.capture()
            #expect(titled.contains("[demo \(work)]"), "\(titled)")
            var light = try IntercomBinary.environment(in: dir)
            light["XDG_STATE_HOME"] = "\(work)/state"
            let doors = try await Subprocess.run(binary, ["doors", "--config", "\(work)/config.ini"], environment: light,
                                                 logDirectory: dir.url, timeout: .seconds(15))
            #expect(doors.status == 0 && doors.stdout.contains("porch") && doors.stdout.contains("demo:1:0"),
                    "\(doors.stdout)\(doors.stderr)")
            let open = try await Subprocess.run(binary, ["open", "demo:1:0", "--config", "\(work)/config.ini"],
                                                environment: light, logDirectory: dir.url, timeout: .seconds(15))
            #expect(open.status == 0 && open.stdout.contains("accepted"), "\(open.stdout)\(open.stderr)")
            // The operator passed it on to the demo's panel (over HTTP, as SmartYard's Beward driver does).
            let panelLines = "\(work)/panel.out"
            var seen = ""
            await TestPatience.eventually(every: .milliseconds(50)) {
                seen = (try? String(contentsOfFile: panelLines, encoding: .utf8)) ?? ""
                return seen.contains("\"event\":\"door_opened\"")
            }
            #expect(seen.contains("\"door\":\"main\"") && seen.contains("\"method\":\"http\""), "the panel's lines:\n\(seen)")
            // The config points the panel's camera at the simulator's RTSP stream, and it plays.
            let config = try String(contentsOfFile: "\(work)/config.ini", encoding: .utf8)
            let rtsp = try #require(config.split(separator: "\n").first { $0.hasPrefix("rtsp = ") }
                .map { String($0.dropFirst("rtsp = ".count)) }, "\(config)")
            #expect(seen.contains("\"event\":\"rtsp_listening\"") && seen.contains(rtsp), "\(rtsp) vs\n\(seen)")
            // -v verbose: should the stream stall, the log tail in the timeout says how far the probe got.
            let probe = try await Subprocess.run(try ExternalTool.path("ffprobe"), [
                "-v", "verbose", "-rtsp_transport", "tcp", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
                rtsp.replacingOccurrences(of: "rtsp://", with: "rtsp://admin:admin@"),
            ], logDirectory: dir.url, timeout: .seconds(15))
            #expect(probe.status == 0 && probe.stdout.contains("h264"), "\(probe.stdout)\(HarnessError.tail(probe.stderr))")
            // The operator's camera plays: a snapshot of its preview (its pipeline starts with the request).
            let picture = "\(work)/camera.jpg"
            let snapshot = try await Subprocess.run(binary, ["snapshot", "demo:cam:1", "-o", picture, "--config", "\(work)/config.ini"],
                                                    environment: light, logDirectory: dir.url, timeout: .seconds(20))
            #expect(snapshot.status == 0 && snapshot.stdout.contains("saved \(picture) (640"), "\(snapshot.stdout)\(snapshot.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).contains { $0.hasPrefix("intercom-operator-camera.") },
                    "the camera's segments are not in the demo's TMPDIR")
            // The user's own token folder stays untouched.
            #expect(!FileManager.default.fileExists(atPath: dir.path + "/state/intercom/operators"))

            // On the screen: decline the ring, choose the operator's door with Tab, open it with o.
            try await tmux.sendKeys("d")
            _ = try await tmux.waitForScreen(containing: "demo:1:0")
            // Each Tab moves the mark (▶) once: the next Tab waits until the screen shows the move, so a
            // slow screen is not pressed past the door.
            func marked(_ screen: String) -> String { screen.split(separator: "\n").first { $0.contains("▶") }.map(String.init) ?? "" }
            var screen = try await tmux.capture()
            var chosen = marked(screen).contains("demo:1:0")
            for _ in 0..<4 where !chosen {
                let before = marked(screen)
                try await tmux.sendKeys("Tab")
                try await TestPatience.eventually(every: .milliseconds(50)) {
                    screen = try await tmux.capture()
                    return marked(screen) != before
                }
                chosen = marked(screen).contains("demo:1:0")
            }
            #expect(chosen, "Tab never chose the operator's door:\n\(screen)")
            try await tmux.sendKeys("o")
            _ = try await tmux.waitForScreen(containing: "open request accepted by demo")

            try await tmux.sendKeys("q")
            // Quitting while the panel rings asks first (between rings it does not).
            try await TestPatience.eventually(every: .milliseconds(100)) {
                let screen = try await tmux.capture()
                if screen.contains("DEMO-EXIT=") { return true }
                guard screen.contains("quit? y/n") else { return false }
                try await tmux.sendKeys("y")
                return true
            }
            _ = try await tmux.waitForScreen(containing: "DEMO-EXIT=0")
            let left = Self.simulators(in: dir)
            #expect(left.isEmpty, "left running after q: \(left)")
            let folders = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("intercom-demo.") }
            #expect(folders.isEmpty, "the demo left \(folders)")
            let segments = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("intercom-operator-camera.") }
            #expect(segments.isEmpty, "the operator left its camera's folder \(segments)")
        }
    }

    @Test func sigtermStopsTheDemoAndItsSimulators() async throws {
        let dir = try TestDirectory(prefix: "intercom-demo")
        var env: [String: String] = ["TERM": "tmux-256color", "TMPDIR": try dir.subdirectory("tmp").path]
        for (key, value) in try IntercomBinary.environment(in: dir) { if let value { env[key] = value } }
        let tmux = try await Tmux(command: "env -u INTERCOM_CONFIG '\(try IntercomBinary.path())' demo --no-bell --no-notify; echo DEMO-EXIT=$?; sleep 30",
                                  width: 120, height: 40, environment: env)
        try await withCleanup({ await tmux.kill() }) {
            _ = try await tmux.waitForScreen(containing: "PORCH IS CALLING")
            #expect(Self.simulators(in: dir).count == 2, "\(Self.simulators(in: dir))")
            // After the launcher's exec the demo's own argv is `intercom demo ...`.
            let demo = try #require(LiveProcess.all(withEnvironment: "HOME", equalTo: dir.path)
                .first { $0.arguments.dropFirst().first == "demo" })
            kill(demo.pid, SIGTERM)
            _ = try await tmux.waitForScreen(containing: "DEMO-EXIT=0")
            let left = Self.simulators(in: dir)
            #expect(left.isEmpty, "left running after SIGTERM: \(left)")
        }
    }
}
