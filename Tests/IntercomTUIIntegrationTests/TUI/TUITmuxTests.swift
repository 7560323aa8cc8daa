import Foundation
import IntercomCore
@testable import IntercomSimulator
import Testing
import IntercomTestSupport
import IntercomPhone
import IntercomBase

/// The real `intercom tui` driven in tmux while simulated panels ring it.
@Suite("TUI in tmux", .serialized)
struct TUITmuxTests {
    /// A TUI in a tmux pane, listening on a free UDP port, with `panels` simulated panels configured.
    struct Session {
        var dir: TestDirectory
        var tmux: Tmux
        var panels: [SimulatedPanel]
        var port: UInt16

        var uri: String { "sip:intercom@127.0.0.1:\(port)" }

        /// `arguments` replace `tui` (e.g. `call entrance`); the screen is ready when it shows `ready`.
        static func start(panelNames: [String], kiosk: Bool = false, width: Int = 120, height: Int = 40,
                          arguments: String = "tui", ready: String = "waiting for calls",
                          extraConfig: String = "") async throws -> Session {
            let dir = try TestDirectory(prefix: "intercom-tui")
            var panels: [SimulatedPanel] = []
            var config = ""
            for (index, name) in panelNames.enumerated() {
                let user = "10000\(index + 1)"
                let panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(
                    user: user, dataDirectory: try dir.subdirectory("panel-\(name)").path))
                panels.append(panel)
                config += """
                [panel \(name)]
                url = \(panel.http.baseURL)
                user = admin
                password = admin
                match = sip:\(user)@
                dial = sip:\(user)@127.0.0.1:\(panel.sipListening.port)
                open = both

                """
            }
            let port = try FreePort.udpAndTCP()
            config = "[sip]\nlisten = udp:127.0.0.1:\(port)\n\n" + config + extraConfig
            let file = try IntercomBinary.writeConfig(config, in: dir)
            var env: [String: String] = ["TERM": "tmux-256color", "COLORTERM": "truecolor"]
            for (key, value) in try IntercomBinary.environment(in: dir) { if let value { env[key] = value } }
            let command = "env -u NO_COLOR -u INTERCOM_CONFIG '\(try IntercomBinary.path())' \(arguments) --config '\(file.path)' --no-bell --no-notify"
                + (kiosk ? " --kiosk" : "") + "; echo TUI-EXIT=$?; sleep 30"
            let tmux: Tmux
            do {
                tmux = try await Tmux(command: command, width: width, height: height, environment: env)
            } catch {
                for panel in panels { await panel.stop() }
                throw error
            }
            let session = Session(dir: dir, tmux: tmux, panels: panels, port: port)
            do {
                _ = try await tmux.waitForScreen(containing: ready)
            } catch {
                // Nothing of the session outlives a start that failed; the client's log says how far it got.
                await session.stop()
                let log = (try? String(contentsOfFile: dir.path + "/state/intercom/tui.log", encoding: .utf8)) ?? ""
                throw HarnessError("\(error)\ntui.log:" + HarnessError.tail(log))
            }
            return session
        }

        /// The first panel (named `name`) rings, `a` answers it; its events from the ring on.
        func ringAndAnswer(name: String) async throws -> EventRecorder<SimulatedPanelEvent> {
            let events = EventRecorder(panels[0].events)
            _ = try await panels[0].ring(uri)
            _ = try await tmux.waitForScreen(containing: "\(name.uppercased()) IS CALLING")
            try await tmux.sendKeys("a")
            _ = try await events.wait("answered") { e -> Bool? in if case .answered = e { true } else { nil } }
            return events
        }

        /// `q` with no call on the screen, then the shell's `TUI-EXIT=0`. Says how long quitting took
        /// (engine and phone stopped, the process gone: 0.3–1 s measured at a load of 20); a timeout
        /// shows the screen and the end of the screen's log.
        func quit() async throws {
            let pressed = ContinuousClock.now
            try await tmux.sendKeys("q")
            do {
                _ = try await tmux.waitForScreen(containing: "TUI-EXIT=0")
            } catch {
                let log = (try? String(contentsOfFile: dir.path + "/state/intercom/tui.log", encoding: .utf8)) ?? ""
                throw HarnessError("\(error)\ntui.log:" + HarnessError.tail(log))
            }
            print("tui: quit in \(ContinuousClock.now - pressed)")
        }

        func stop() async {
            await tmux.kill()
            for panel in panels { await panel.stop() }
        }
    }

    @Test func callAPanelOpenHangUpAndBackToTheShell() async throws {
        try await withStaticPicture {
            let s = try await Session.start(panelNames: ["entrance"], arguments: "call entrance", ready: "In call with entrance")
            try await withCleanup({ await s.stop() }) {
                let events = EventRecorder(s.panels[0].events)
                try await s.tmux.sendKeys("o")
                let door = try await events.wait("the panel confirms the door") { e -> SimulatedDoorEvent? in
                    if case .doorOpened(let d) = e { d } else { nil } }
                #expect(door.door == .main)
                try await s.tmux.sendKeys("h")
                _ = try await s.tmux.waitForScreen(containing: "call with entrance ended: hangup")
                _ = try await s.tmux.waitForScreen(containing: "TUI-EXIT=0")
            }
        }
    }

    @Test func aMissedCallIsInTheJournalViewWithItsPicture() async throws {
        try await withStaticPicture {
            let s = try await Session.start(panelNames: ["entrance"])
            try await withCleanup({ await s.stop() }) {
                _ = try await s.tmux.waitForScreen(containing: "waiting for calls")
                try await s.tmux.sendKeys("l")
                _ = try await s.tmux.waitForScreen(containing: "the journal is empty")
                try await s.tmux.sendKeys("l")
                _ = try await s.panels[0].ring(s.uri)
                _ = try await s.tmux.waitForScreen(containing: "ENTRANCE IS CALLING")
                // The first peephole picture is on the ringing screen (half-blocks): it has come, and it is
                // the one saved with the call.
                _ = try await s.tmux.waitForScreen(containing: "▀")
                await s.panels[0].hangup()
                _ = try await s.tmux.waitForScreen(containing: "missed")
                try await s.tmux.sendKeys("l")
                let screen = try await s.tmux.waitForScreen(containing: "entrance missed")
                #expect(screen.contains("Journal"))
                // The ring picture is drawn beside the list: half-blocks from the picture, not blank.
                _ = try await s.tmux.waitForScreen(containing: "▀")
                try await s.tmux.sendKeys("q")
                _ = try await s.tmux.waitForScreen(containing: "Doors")
            }
        }
    }

    @Test func aTerminalThatGoesAwayEndsTheCallCleanly() async throws {
        try await withStaticPicture {
            let s = try await Session.start(panelNames: ["entrance"], arguments: "call entrance", ready: "In call with entrance")
            try await withCleanup({ await s.stop() }) {
                let events = EventRecorder(s.panels[0].events)
                // As when ssh drops: the pty closes under the client.
                await s.tmux.kill()
                let reason = try await events.wait("the panel sees a BYE") { e -> CallEndReason? in
                    if case .ended(_, let reason, _) = e { reason } else { nil } }
                #expect(reason == .remoteHangup)
            }
        }
    }

    @Test func ringAnswerOpenHangUp() async throws {
        // The simulated panels send a static picture, which mediastreamer keeps process-wide.
        try await withStaticPicture {
            let s = try await Session.start(panelNames: ["entrance"])
            try await withCleanup({ await s.stop() }) {
                let panel = s.panels[0]
                let events = EventRecorder(panel.events)
                _ = try await panel.ring(s.uri)
                _ = try await s.tmux.waitForScreen(containing: "ENTRANCE IS CALLING")
                try await s.tmux.sendKeys("a")
                _ = try await events.wait("the panel sees the call established") { e -> Bool? in
                    if case .answered = e { true } else { nil } }
                _ = try await s.tmux.waitForScreen(containing: "In call with entrance")
                try await s.tmux.sendKeys("o")
                let door = try await events.wait("the panel confirms the door") { e -> SimulatedDoorEvent? in
                    if case .doorOpened(let d) = e { d } else { nil } }
                #expect(door.door == .main)
                _ = try await s.tmux.waitForScreen(containing: "opened")
                try await s.tmux.sendKeys("h")
                let reason = try await events.wait("the panel sees the hang-up") { e -> CallEndReason? in
                    if case .ended(_, let reason, _) = e { reason } else { nil } }
                #expect(reason == .remoteHangup)
                _ = try await s.tmux.waitForScreen(containing: "hung up")
                try await s.quit()
            }
        }
    }

    @Test func resizeDuringACallKeepsTheLayout() async throws {
        // The simulated panels send a static picture, which mediastreamer keeps process-wide.
        try await withStaticPicture {
            let s = try await Session.start(panelNames: ["gate"], width: 200, height: 60)
            try await withCleanup({ await s.stop() }) {
                _ = try await s.ringAndAnswer(name: "gate")
                for (w, h) in [(80, 24), (200, 60), (80, 24), (120, 40)] {
                    try await s.tmux.resize(width: w, height: h)
                    // The screen is redrawn for the new size within a few turns of the TUI's loop.
                    let (fits, screen) = try await Self.callScreenFits(s.tmux, width: w, height: h)
                    #expect(fits, "at \(w)×\(h) the call screen did not fit:\n\(screen)")
                }
                #expect(try await s.tmux.paneStatus().dead == false)
            }
        }
    }

    @Test func kioskShowsThreePanelsAndTwoRingingAtOnce() async throws {
        // The simulated panels send a static picture, which mediastreamer keeps process-wide.
        try await withStaticPicture {
            let s = try await Session.start(panelNames: ["entrance", "gate", "barrier"], kiosk: true, width: 160, height: 48)
            try await withCleanup({ await s.stop() }) {
                let screen = try await s.tmux.waitForScreen(containing: "3. barrier")
                #expect(screen.contains("1. entrance") && screen.contains("2. gate"))
                _ = try await s.panels[1].ring(s.uri)
                _ = try await s.panels[2].ring(s.uri)
                let ringing = try await s.tmux.waitForScreen(containing: "RINGING")
                _ = ringing
                var both = false
                try await TestPatience.eventually(every: .milliseconds(100)) {
                    let text = try await s.tmux.capture()
                    both = text.contains("gate RINGING") && text.contains("barrier RINGING")
                    return both
                }
                #expect(both, "two panels should ring at once")
                // Quitting a kiosk takes a deliberate Q then y; q alone does nothing.
                try await s.tmux.sendKeys("q")
                try await Task.sleep(nanoseconds: 300_000_000)
                #expect(try await s.tmux.paneStatus().dead == false)
                #expect(!(try await s.tmux.capture()).contains("TUI-EXIT"))
            }
        }
    }

    /// Terminal answers that arrive after the probe gave up (a slow start, a slow SSH link) hold
    /// O and digits; in the kiosk digits choose doors and `o` opens. They must open nothing; a
    /// real 2 selects the gate (drawn marked) and opens nothing either; `o` then opens the gate.
    @Test func lateTerminalAnswersOpenNoDoor() async throws {
        try await withStaticPicture {
            let s = try await Session.start(panelNames: ["entrance", "gate"], kiosk: true)
            try await withCleanup({ await s.stop() }) {
                _ = try await s.tmux.waitForScreen(containing: "2. gate")
                let doors = { s.panels.map { $0.http.requestCount("intercom_cgi?action=maindoor") + $0.http.requestCount("intercom_cgi?action=altdoor") } }
                // kitty's graphics answer, a DA1 and a cell-size report, as the terminal sends them.
                try await s.tmux.sendBytes(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4;22c\u{1B}[6;18;9t".utf8))
                try await Task.sleep(for: .milliseconds(800))
                #expect(doors() == [0, 0], "a terminal answer opened a door")
                try await s.tmux.sendKeys("2")
                _ = try await s.tmux.waitForScreen(containing: "▶2. gate")
                _ = try await s.tmux.waitForScreen(containing: "o open gate")
                #expect(doors() == [0, 0], "a digit alone opened a door")
                try await s.tmux.sendKeys("o")
                await TestPatience.eventually(within: TestPatience.condition, every: .milliseconds(50)) { doors()[1] != 0 }
                #expect(doors() == [0, 1], "2 then o opens the gate's door")
            }
        }
    }

    @Test func demoShowsACallInAFreshHome() async throws {
        let dir = try TestDirectory(prefix: "intercom-demo")
        var env: [String: String] = ["TERM": "tmux-256color"]
        for (key, value) in try IntercomBinary.environment(in: dir) { if let value { env[key] = value } }
        let tmux = try await Tmux(command: "env -u INTERCOM_CONFIG '\(try IntercomBinary.path())' demo --no-bell --no-notify; echo DEMO-EXIT=$?; sleep 30",
                                  width: 120, height: 40, environment: env)
        try await withCleanup({ await tmux.kill() }) {
            _ = try await tmux.waitForScreen(containing: "PORCH IS CALLING")
            try await tmux.sendKeys("a")
            _ = try await tmux.waitForScreen(containing: "In call with porch")
            try await tmux.sendKeys("h")
            _ = try await tmux.waitForScreen(containing: "hung up")
            try await tmux.sendKeys("q")
            _ = try await tmux.waitForScreen(containing: "DEMO-EXIT=0")
        }
    }

    /// Whether the call screen with gate came to fit `width`×`height` (polled: redrawn within a few turns of
    /// the TUI's loop), and the last screen seen.
    static func callScreenFits(_ tmux: Tmux, width: Int, height: Int) async throws -> (fits: Bool, screen: String) {
        var screen = ""
        let fits = try await TestPatience.eventually(every: .milliseconds(100)) {
            screen = try await tmux.capture()
            var lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            while lines.last?.isEmpty == true { lines.removeLast() }
            return lines.count <= height && lines.allSatisfy { $0.count <= width }
                && screen.contains("In call with gate") && screen.contains("hang up")
        }
        return (fits, screen)
    }
}
