import Foundation
import IntercomBase
@testable import IntercomSimulator
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// Issue 38, "a screen never goes deaf", with the real binaries in tmux: an attached `tui` (and a `watch`
/// beside it) whose daemon stops for 12 s says the whole time that it is away, attaches by itself to the
/// daemon started again,
/// and a simulated panel's call 5 s after the restart rings on it and `a` answers. A kiosk given a
/// config of its own beside a daemon of another config shows its own panels with its own engine, or,
/// when that daemon holds its SIP port, says in one line which daemon serves which config (exit 69).
@Suite("screens re-attach and keep to their config", .serialized, .removesTestFolders) struct ReattachTmuxTests {
    @Test func aScreenSaysTheDaemonIsAwayAndRingsOnceItIsBack() async throws {
        try await Self.withPanelAndDaemon(name: "reattach") { panel, port, config, daemon, env in
            let later = LaterDaemon()
            var screen: Tmux?
            var watchScreen: Tmux?
            try await withCleanup({
                await screen?.kill()
                await watchScreen?.kill()
                _ = await later.daemon?.stop()
            }) {
                let tmux = try await Tmux(command: try Self.screen("tui", config: daemon.configURL.path),
                                          width: 120, height: 40, environment: env)
                screen = tmux
                let attached = try await tmux.waitForScreen(containing: "waiting for calls")
                #expect(attached.contains("attached to the daemon, pid \(daemon.process.pid)"), "\(attached)")
                // An attached `watch` beside it (wide: the simulated panel has no stream, and its line says so too).
                let watch = try await Tmux(command: try Self.screen("watch entrance", config: daemon.configURL.path),
                                           width: 200, height: 24, environment: env)
                watchScreen = watch
                _ = try await watch.waitForScreen(containing: "attached, pid \(daemon.process.pid)")

                // The daemon stops for 12 s: every second of it the title and the line say it is away.
                _ = await daemon.stop()
                _ = try await tmux.waitForScreen(containing: "daemon away")
                let stopped = ContinuousClock.now
                // A look on each second since the stop, not a second after the last look: a capture takes
                // up to a few hundred ms on a loaded machine, and ten looks then did not fit in 12 s.
                var looks = 0
                var lastLook = Duration.zero
                while stopped.duration(to: .now) < .seconds(12) {
                    lastLook = stopped.duration(to: .now)
                    let shown = try await tmux.capture()
                    #expect(shown.contains("[daemon away") && shown.contains("calls do not ring here until it is back")
                            && shown.contains("attaching again by itself"), "second \(looks): \(shown)")
                    #expect(!shown.contains("waiting for calls") && !shown.contains("pid \(daemon.process.pid)"), "\(shown)")
                    looks += 1
                    try await Task.sleep(until: stopped.advanced(by: .seconds(looks)))
                }
                #expect(looks >= 8 && lastLook >= .seconds(11), "\(looks) looks, the last \(lastLook) after the stop")
                let watchAway = try await watch.capture()
                #expect(watchAway.contains("daemon away") && watchAway.contains("the daemon went away")
                        && !watchAway.contains("EXIT="), "\(watchAway)")

                // Started again (same config, socket and port): the screen attaches by itself.
                let back = try DaemonProcess(config: config, name: "reattach", directory: daemon.directory)
                later.daemon = back
                try await back.waitUntilStarted()
                let restartedAt = ContinuousClock.now
                let again = try await tmux.waitForScreen(containing: "attached to the daemon, pid \(back.process.pid)")
                #expect(again.contains("waiting for calls") && !again.contains("daemon away"), "\(again)")
                _ = try await watch.waitForScreen(containing: "attached, pid \(back.process.pid)")
                let listed = try await AttachedScreensTmuxTests.poll(back) { AttachedScreensTmuxTests.screens($0).sorted() == ["tui", "watch"] }
                #expect(AttachedScreensTmuxTests.screens(listed).sorted() == ["tui", "watch"], "\(listed)")
                print("reattach: attached again \(restartedAt.duration(to: .now)) after the daemon's `started`")

                // A panel calls 5 s after the restart: it rings on the same screen and `a` answers it.
                try await Task.sleep(until: restartedAt.advanced(by: .seconds(5)))
                let events = EventRecorder(panel.events)
                _ = try await panel.ring("sip:intercom@127.0.0.1:\(port)")
                _ = try await tmux.waitForScreen(containing: "ENTRANCE IS CALLING")
                try await tmux.sendKeys("a")
                _ = try await events.wait("answered") { e -> Bool? in if case .answered = e { true } else { nil } }
                _ = try await tmux.waitForScreen(containing: "In call with entrance")
                try await tmux.sendKeys("h")
                _ = try await events.wait("ended") { e -> Bool? in if case .ended = e { true } else { nil } }
            }
        }
    }

    @Test func aKioskOfAnotherConfigShowsItsOwnPanelsOrSaysWhichDaemonServesWhich() async throws {
        try await Self.withPanelAndDaemon(name: "resident") { panel, port, _, daemon, env in
            var screens: [Tmux] = []
            try await withCleanup({
                for screen in screens { await screen.kill() }
            }) {
                // The desk's six panels; its [daemon] socket is the default one, which the resident's daemon serves.
                func desk(listen: UInt16) -> String {
                    "[sip]\nlisten = udp:127.0.0.1:\(listen)\nunknown_callers = reject\n\n" + (1...6).map {
                        "[panel desk-\($0)]\nurl = http://127.0.0.1:\(panel.http.port)\nuser = admin\npassword = admin\nmatch = sip:20000\($0)@\n"
                    }.joined(separator: "\n")
                }
                let deskConfig = try IntercomBinary.writeConfig(desk(listen: try FreePort.udpAndTCP()), in: daemon.directory, name: "desk.ini")
                let kiosk = try await Tmux(command: try Self.screen("tui --kiosk", config: deskConfig.path),
                                           width: 120, height: 40, environment: env)
                screens.append(kiosk)
                let tiles = try await kiosk.waitForScreen(containing: "6. desk-6")
                #expect(tiles.contains("[own engine]") && !tiles.contains("entrance") && !tiles.contains("attached"), "\(tiles)")
                let listed = try await daemon.run(["ctl", "status"])
                #expect(AttachedScreensTmuxTests.screens(listed.stdout).isEmpty, "the desk did not attach: \(listed)")

                // The same desk on the daemon's own SIP port: one line, which daemon serves which config, exit 69.
                let clash = try IntercomBinary.writeConfig(desk(listen: port), in: daemon.directory, name: "clash.ini")
                let refused = try await Tmux(command: try Self.screen("tui --kiosk", config: clash.path),
                                             width: 200, height: 20, environment: env)
                screens.append(refused)
                let line = try await refused.waitForScreen(containing: "EXIT=")
                let canonical = (daemon.configURL.path as NSString).resolvingSymlinksInPath
                #expect(line.contains("EXIT=69"), "\(line)")
                #expect(line.contains("this user's intercom daemon (pid \(daemon.process.pid), serving \(canonical)) holds it")
                        && line.contains("clash.ini") && line.contains("systemctl --user stop intercom"), "\(line)")
            }
        }
    }
}

extension ReattachTmuxTests {
    /// A simulated panel (SIP user 100001) and a daemon for it on a free loopback port, started; `body`
    /// gets them, the port, the daemon's config text and the environment its screens run in. Both are
    /// stopped after `body`.
    static func withPanelAndDaemon(name: String, _ body: (SimulatedPanel, UInt16, String, DaemonProcess, [String: String]) async throws -> Void)
        async throws {
        try await withStaticPicture {
            let dir = try TestDirectory(prefix: "intercom-\(name)")
            let panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(
                user: "100001", dataDirectory: try dir.subdirectory("panel").path))
            let port = try FreePort.udpAndTCP()
            let config = DaemonProcess.simulatedPanelConfig(httpPort: panel.http.port, listen: "udp:127.0.0.1:\(port)")
            let daemon = try DaemonProcess(config: config, name: name)
            try await withCleanup({
                _ = await daemon.stop()
                await panel.stop()
            }) {
                try await daemon.waitUntilStarted()
                var env: [String: String] = ["TERM": "tmux-256color", "COLORTERM": "truecolor"]
                for (key, value) in try IntercomBinary.environment(in: daemon.directory) { if let value { env[key] = value } }
                try await body(panel, port, config, daemon, env)
            }
        }
    }

    /// The light binary's screen `command` (`tui`, `watch entrance`) on `config`, then its exit status
    /// (`EXIT=N`) left on the pane.
    static func screen(_ command: String, config: String) throws -> String {
        "env -u NO_COLOR -u INTERCOM_CONFIG '\(try IntercomBinary.path())' \(command) --config '\(config)'"
            + (command.hasPrefix("tui") ? " --no-bell --no-notify --no-ring" : "") + "; echo EXIT=$?; sleep 30"
    }
}

/// The daemon a test starts again, for its cleanup.
final class LaterDaemon: @unchecked Sendable {
    var daemon: DaemonProcess?
}
