import Foundation
import IntercomBase
@testable import IntercomSimulator
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// Two `intercom tui` screens attached to one running daemon (the real binaries, tmux): a
/// simulated panel rings, both show it; `a` on the first answers, the second says at which screen
/// it was answered and opens the door with `o`; the first screen is killed, the call
/// goes on, and `ctl status` lists the screens that are left. A kiosk attached beside them shows the
/// daemon's 8 panels and the ring; a `watch` attached while the kiosk runs shows one panel's live
/// stream through the daemon, says so, and leaves with `q` (the daemon drops it). Every attached screen,
/// the watch included, runs in the light `intercom` binary.
@Suite("screens attached to the daemon", .serialized, .removesTestFolders) struct AttachedScreensTmuxTests {
    @Test func twoScreensOneCallAndAKilledScreenEndsNothing() async throws {
        try await withStaticPicture {
            let dir = try TestDirectory(prefix: "intercom-attach")
            let panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(
                user: "100001", dataDirectory: try dir.subdirectory("panel").path))
            let port = try FreePort.udpAndTCP()
            // Seven more panels beside the entrance, their pictures from the same simulator (no SIP of their
            // own); panel-5 has a live stream, which the daemon plays for the watch.
            let rtsp = try await RTSPTestServer.start(width: 320, height: 240, fps: 15)
            let more = (2...8).map { "[panel panel-\($0)]\nurl = http://127.0.0.1:\(panel.http.port)\nuser = admin\npassword = admin\n"
                + "match = sip:10000\($0)@\n" + ($0 == 5 ? "rtsp = \(rtsp.url())\n" : "") }.joined(separator: "\n")
            let daemon = try DaemonProcess(config: DaemonProcess.simulatedPanelConfig(
                httpPort: panel.http.port, listen: "udp:127.0.0.1:\(port)") + "\n" + more, name: "attach")
            var screens: [Tmux] = []
            try await withCleanup({
                for screen in screens { await screen.kill() }
                _ = await daemon.stop()
                await panel.stop()
                await rtsp.stop()
            }) {
                try await daemon.waitUntilStarted()
                var env: [String: String] = ["TERM": "tmux-256color", "COLORTERM": "truecolor"]
                for (key, value) in try IntercomBinary.environment(in: daemon.directory) { if let value { env[key] = value } }
                let command = "env -u NO_COLOR -u INTERCOM_CONFIG '\(try IntercomBinary.path())' tui --config '\(daemon.configURL.path)'"
                    + " --no-bell --no-notify --no-ring; echo TUI-EXIT=$?; sleep 30"
                let title = "attached to the daemon, pid \(daemon.process.pid)"
                for _ in 0..<2 {
                    let tmux = try await Tmux(command: command, width: 120, height: 40, environment: env)
                    screens.append(tmux)
                    let screen = try await tmux.waitForScreen(containing: "waiting for calls")
                    #expect(screen.contains(title), "\(screen)")
                }
                // A kiosk beside them: its tiles are the daemon's panels.
                let kiosk = try await Tmux(command: command.replacingOccurrences(of: " tui ", with: " tui --kiosk "),
                                           width: 120, height: 40, environment: env)
                screens.append(kiosk)
                let tiles = try await kiosk.waitForScreen(containing: "1. entrance")
                #expect(tiles.contains(title), "\(tiles)")
                _ = try await kiosk.waitForScreen(containing: "8. panel-8")

                // `watch` attached while the kiosk runs, at 80×24: the picture comes through the daemon.
                let watch = try await Tmux(command: "env -u NO_COLOR -u INTERCOM_CONFIG '\(try IntercomBinary.path())' watch panel-5"
                    + " --config '\(daemon.configURL.path)'; echo WATCH-EXIT=$?; sleep 30", width: 80, height: 24, environment: env)
                screens.append(watch)
                let watched = try await watch.waitForScreen(containing: "attached, pid \(daemon.process.pid)")
                #expect(watched.contains(" panel-5 · attached, pid"), "\(watched)")
                let picture = try await watch.waitForScreen(containing: "▀")
                #expect(!picture.contains("WATCH-EXIT"), "\(picture)")
                // The panel's main stream, played by the daemon and scaled to this window.
                _ = try await watch.waitForScreen(containing: "attached, pid \(daemon.process.pid) · symbols · live")
                let listed = try await daemon.run(["ctl", "status"])
                #expect(Self.screens(listed.stdout) == ["tui", "tui", "kiosk", "watch"], "four screens: \(listed)")
                // The attached tui, kiosk and watch run in the light binary (no phone loaded), not in intercom-full.
                let pids = Self.screenPIDs(listed.stdout)
                #expect(pids.map(\.0) == ["tui", "tui", "kiosk", "watch"], "the status lists each screen's pid: \(listed)")
                for (name, pid) in pids {
                    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? "?"
                    #expect((exe as NSString).lastPathComponent == "intercom", "\(name) (pid \(pid)) runs \(exe)")
                }
                try await watch.sendKeys("q")
                _ = try await watch.waitForScreen(containing: "WATCH-EXIT=0")
                _ = try await Self.poll(daemon, until: { Self.screens($0) == ["tui", "tui", "kiosk"] })
                // A watch line the light binary refuses beside the daemon says what intercom-full would.
                let unknown = try await daemon.run(["watch", "panel-9"])
                #expect(unknown.status == 64 && unknown.stderr.contains("no panel 'panel-9'") && unknown.stderr.contains("panel-5"),
                        "\(unknown)")
                let noTerminal = try await daemon.run(["watch", "panel-5"])
                #expect(noTerminal.status == 64 && noTerminal.stderr.contains("watch needs a terminal"), "\(noTerminal)")
                _ = try await kiosk.waitForScreen(containing: "8. panel-8")

                let events = EventRecorder(panel.events)
                _ = try await panel.ring("sip:intercom@127.0.0.1:\(port)")
                for screen in screens.prefix(2) { _ = try await screen.waitForScreen(containing: "ENTRANCE IS CALLING") }
                _ = try await kiosk.waitForScreen(containing: "RINGING")
                try await screens[0].sendKeys("a")
                _ = try await events.wait("answered") { e -> Bool? in if case .answered = e { true } else { nil } }
                _ = try await screens[0].waitForScreen(containing: "In call with entrance")
                // Which screen: the first attached one (the daemon's connection number), a tui of this user.
                let elsewhere = try await screens[1].waitForScreen(containing: "answered at screen ")
                #expect(elsewhere.contains("In call with entrance") && elsewhere.contains("(tui, "), "\(elsewhere)")
                try await screens[1].sendKeys("o")
                do {
                    _ = try await events.wait("door opened") { e -> Bool? in if case .doorOpened = e { true } else { nil } }
                } catch {
                    Issue.record("\(error)\n\(try await screens[1].capture())")
                }

                // The first screen dies as a killed terminal would: the call must not notice.
                let first = screens.removeFirst()
                await first.kill()
                let remaining = try await Self.poll(daemon, until: { Self.screens($0) == ["tui", "kiosk"] })
                #expect(remaining.contains("\"active\""), "the call goes on: \(remaining)")
                #expect(!events.all.contains { if case .ended = $0 { true } else { false } },
                        "the panel's call ended with the killed screen")
                try await screens[0].sendKeys("h")
                _ = try await events.wait("ended") { e -> Bool? in if case .ended = e { true } else { nil } }
                _ = try await screens[0].waitForScreen(containing: "waiting for calls")
            }
        }
    }

    /// The names of the screens `ctl status` lists.
    static func screens(_ status: String) -> [String] {
        let object = (try? JSONSerialization.jsonObject(with: Data(status.utf8))) as? [String: Any]
        return (object?["screens"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
    }

    /// The screens `ctl status` lists, with the pid of each.
    static func screenPIDs(_ status: String) -> [(String, Int)] {
        let object = (try? JSONSerialization.jsonObject(with: Data(status.utf8))) as? [String: Any]
        return (object?["screens"] as? [[String: Any]])?.compactMap { screen in
            guard let name = screen["name"] as? String, let pid = screen["pid"] as? Int else { return nil }
            return (name, pid)
        } ?? []
    }

    /// `ctl status` until its output satisfies `done` (within 10 s); that output.
    static func poll(_ daemon: DaemonProcess, until done: (String) -> Bool) async throws -> String {
        var last = ""
        if try await TestPatience.eventually(within: .seconds(10), every: .milliseconds(100), {
            last = try await daemon.run(["ctl", "status"]).stdout
            return done(last)
        }) { return last }
        Issue.record("ctl status never showed what was awaited: \(last)")
        return last
    }
}
