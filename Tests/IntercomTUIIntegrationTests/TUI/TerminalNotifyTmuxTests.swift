import Foundation
@testable import IntercomSimulator
import Testing
import IntercomTestSupport

/// The terminal client's own notification escape, in tmux with the pane's raw output captured
/// (`pipe-pane`): after a focus-out report a ring is posted as kitty's OSC 99 for a kitty-like
/// terminal (and taken back when the call ends); an unknown terminal gets the bell and no escape;
/// a screen that posts the desktop notification itself sends no escape besides.
@Suite("TUI: terminal notifications in tmux", .serialized)
struct TerminalNotifyTmuxTests {
    /// Runs `intercom tui` as if in the terminal `environment` names (outside tmux as far as it
    /// knows), loses focus, lets a simulated panel ring it until `marker` is in the raw output;
    /// with `afterHangUp`, the panel then hangs up and that is waited for too. Returns the raw output.
    /// `focusedRing`: the panel rings before the focus is lost (and the escape waits for that).
    /// `desktop`: `[notify] desktop`; `whileRinging` runs once `marker` is seen, before any hang-up.
    private func ringWhileAway(environment: String, until marker: String, afterHangUp: String? = nil,
                               focusedRing: Bool = false, desktop: String = "off",
                               whileRinging: (Tmux) async throws -> Void = { _ in }) async throws -> String {
        let dir = try TestDirectory(prefix: "intercom-tui-notify")
        let panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(user: "100001", dataDirectory: try dir.subdirectory("panel").path))
        let port = try FreePort.udpAndTCP()
        let config = """
            [sip]
            listen = udp:127.0.0.1:\(port)

            [panel entrance]
            url = \(panel.http.baseURL)
            user = admin
            password = admin
            match = sip:100001@

            [notify]
            desktop = \(desktop)
            terminal = auto
            """
        let file = try IntercomBinary.writeConfig(config, in: dir)
        var env: [String: String] = [:]
        for (key, value) in try IntercomBinary.environment(in: dir) { if let value { env[key] = value } }
        let command = "env -u TMUX -u NO_COLOR -u INTERCOM_CONFIG -u KITTY_WINDOW_ID -u TERM_PROGRAM -u WT_SESSION -u KONSOLE_VERSION "
            + "\(environment) '\(try IntercomBinary.path())' tui --config '\(file.path)' --graphics symbols --no-ring; sleep 30"
        let tmux = try await Tmux(command: command, width: 100, height: 30, environment: env)
        let raw = dir.file("pane.raw").path
        return try await withCleanup({ await tmux.kill(); await panel.stop() }) {
            try await tmux.waitForScreen(containing: "waiting for calls")
            try await tmux.pipeOutput(to: raw)
            if focusedRing {
                // In focus the ring is the screen and the bell: the escape is written before the
                // bell in the same turn, so its absence by the bell is its absence.
                _ = try await panel.ring("sip:intercom@127.0.0.1:\(port)")
                let focused = try await Self.waitForRaw(raw, containing: "\u{07}", screen: tmux)
                #expect(!focused.contains("\u{1B}]99;"), "posted in focus: \(focused.debugDescription)")
            }
            // The terminal reports that its window lost focus (CSI O), as after `CSI ? 1004 h`.
            try await tmux.sendBytes([0x1B, 0x5B, 0x4F])
            if !focusedRing { _ = try await panel.ring("sip:intercom@127.0.0.1:\(port)") }
            try await tmux.waitForScreen(containing: "ENTRANCE IS CALLING")
            let seen = try await Self.waitForRaw(raw, containing: marker, screen: tmux)
            try await whileRinging(tmux)
            guard let afterHangUp else { return seen }
            await panel.hangup()
            return try await Self.waitForRaw(raw, containing: afterHangUp, screen: tmux)
        }
    }

    /// Polls the pane's raw output until it holds `text`; a timeout shows that output and the screen.
    private static func waitForRaw(_ path: String, containing text: String, screen tmux: Tmux,
                                   timeout: Duration = TestPatience.condition) async throws -> String {
        var raw = ""
        if await TestPatience.eventually(within: timeout, {
            raw = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return raw.contains(text)
        }) { return raw }
        let screen = (try? await tmux.capture()) ?? "(no capture)"
        throw HarnessError.timeout("\(text.debugDescription) in the pane's output", after: timeout,
                                   log: "output: \(raw.debugDescription)\nscreen:\n\(screen)")
    }

    @Test("a kitty-like terminal gets OSC 99 with the panel's name once it loses focus, closed when the call ends")
    func kittyGetsOSC99() async throws {
        let raw = try await ringWhileAway(environment: "TERM=xterm-256color KITTY_WINDOW_ID=1", until: "\u{1B}]99;",
                                          afterHangUp: ":p=close;", focusedRing: true)
        #expect(raw.contains(";entrance is calling\u{1B}\\"), "\(raw.debugDescription)")
        #expect(raw.contains(":a=focus:"), "\(raw.debugDescription)")
    }

    @Test("an unknown terminal gets the bell and no notification escape")
    func unknownGetsTheBell() async throws {
        let raw = try await ringWhileAway(environment: "TERM=xterm-256color", until: "\u{07}")
        for osc in ["\u{1B}]99;", "\u{1B}]777;", "\u{1B}]9;"] {
            #expect(!raw.contains(osc), "\(osc.debugDescription) in \(raw.debugDescription)")
        }
    }

    /// A screen with its own engine posts the desktop notification itself (on a private bus with a
    /// stub server): its Answer button answers on the screen, and the terminal's escape is left out.
    @Test("the screen's own engine posts the desktop notification; its Answer answers; no second popup by escape")
    func screenPostsTheDesktopNotification() async throws {
        let stub = try await NotificationServerStub.start(actions: true)
        try await withCleanup({ await stub.stop() }) {
            let raw = try await ringWhileAway(
                environment: "TERM=xterm-256color KITTY_WINDOW_ID=1 DBUS_SESSION_BUS_ADDRESS='\(stub.address)'",
                until: "\u{07}", desktop: "auto") { tmux in
                    let shown = try await stub.wait(for: "Notify")
                    #expect(shown["summary"] as? String == "entrance is calling", "\(shown)")
                    try stub.press("answer", on: try #require(shown.id))
                    try await tmux.waitForScreen(containing: "In call with entrance")
                    try await stub.wait(for: "CloseNotification") { $0.id == shown.id }
                }
            #expect(!raw.contains("\u{1B}]99;"), "\(raw.debugDescription)")
        }
    }
}
