import Foundation
import IntercomBase
import IntercomSimulator

/// Screens attached to the daemon (issue 23), in one run: a simulated panel in this process rings
/// a daemon (`intercom daemon`) and, for the in-process figure, an `intercom tui --own-engine` with
/// its own port; attached screens are real `intercom tui` processes in tmux and protocol screens
/// in this process (`ProtocolScreen`), so frame rates can be counted.
enum AttachBench {
    struct Result {
        /// `intercom tui` started → its first full screen (title attached, "waiting for calls").
        var startToScreen = Samples()
        /// `intercom watch porch` started → its first picture (a half block of the snapshot drawn), attached,
        /// and the binary the watch ran in (`/proc/PID/exe` once the picture showed).
        var watchToPicture = Samples()
        var watchBinary = "?"
        /// `intercom help log`: the attached screen's binary (the light one) started and ended, nothing else
        /// (its share of the start); `intercom-full help` beside it, the binary that ran the screen before.
        var processStart = Samples()
        var fullStart = Samples()
        /// INVITE sent → "IS CALLING" on the screen, attached and own engine.
        var ringAttached = Samples()
        var ringOwn = Samples()
        /// The daemon's CPU (% of one core) while a panel rings, with one and three screens.
        var cpuOne: Double = .nan
        var cpuThree: Double = .nan
        /// Frames a second of the two running screens before and while the third is stopped.
        var rateBefore: [Double] = []
        var rateStopped: [Double] = []
        var stoppedStillAttached = false
        /// The daemon's private memory after 100 and after 1000 attach/detach rounds, KB.
        var memory100: Double = .nan
        var memory1000: Double = .nan
        var note = ""
    }

    static func run(intercom: String, work: String, rounds: Int) async throws -> Result {
        var result = Result()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            result.note = "tmux is not installed"
            return result
        }
        let panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(dataDirectory: "\(work)/attach-panel"))
        defer { Task { await panel.stop() } }
        let panes = BenchPanes()
        defer { panes.stop() }
        let home = "\(work)/attach-home", runtime = "\(work)/attach-run"
        for directory in [home, runtime] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let section = BenchConfig.panel("porch", url: panel.http.baseURL, "match = sip:100001@", "open = http")
        let screenEnv = "env HOME=\(home) XDG_RUNTIME_DIR=\(runtime) TERM=tmux-256color"

        // The in-process TUI first, with no daemon: its own engine and port.
        let ownPort = try TUIBench.freeUDPPort()
        let ownConfig = "\(home)/own.ini"
        try (BenchConfig.sip(port: ownPort, "ring_timeout = 600") + section).write(toFile: ownConfig, atomically: true, encoding: .utf8)
        chmod(ownConfig, 0o600)
        let own = try panes.open("exec \(screenEnv) \(intercom) tui --own-engine --config \(ownConfig) --no-bell --no-notify --no-ring")
        if await panes.wait(own, for: ["waiting for calls"]) != nil {
            result.ringOwn = await rings(panel, uri: "sip:intercom@127.0.0.1:\(ownPort)", pane: own, panes: panes, rounds: rounds)
        }
        panes.close(own)

        let daemon = try await BenchDaemon.start(intercom: intercom, home: home,
                                                 config: BenchConfig.sip(port: 0, "ring_timeout = 600") + section,
                                                 environment: ["XDG_RUNTIME_DIR": runtime])
        defer { daemon.process.stop() }
        let pid = daemon.process.pid
        let socket = "\(runtime)/intercom/control.sock"
        let tui = "exec \(screenEnv) \(intercom) tui --config \(home)/config.ini --no-bell --no-notify --no-ring"
        let title = "attached to the daemon, pid \(pid)"

        // Start → first full screen, attached: a fresh process each time; beside it the binaries' own starts.
        let full = (intercom as NSString).deletingLastPathComponent + "/intercom-full"
        for _ in 0..<rounds {
            var began = Date()
            if (try? Spawn.run(intercom, ["help", "log"])) != nil { result.processStart.add(Date().timeIntervalSince(began) * 1000) }
            began = Date()
            if (try? Spawn.run(full, ["help"])) != nil { result.fullStart.add(Date().timeIntervalSince(began) * 1000) }
        }
        for _ in 0..<rounds {
            let started = Date()
            let pane = try panes.open(tui)
            if let shown = await panes.wait(pane, for: [title, "waiting for calls"]) {
                result.startToScreen.add(shown.timeIntervalSince(started) * 1000)
            }
            panes.close(pane)
        }
        // `watch` beside the daemon: start → first picture of the panel (the daemon fetches it for the screen).
        let watch = "exec \(screenEnv) \(intercom) watch porch --config \(home)/config.ini --graphics symbols"
        for _ in 0..<rounds {
            let started = Date()
            let pane = try panes.open(watch)
            if let shown = await panes.wait(pane, for: ["▀"]) {
                result.watchToPicture.add(shown.timeIntervalSince(started) * 1000)
                if let pid = panes.pid(pane), let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe") {
                    result.watchBinary = (exe as NSString).lastPathComponent
                }
            }
            panes.close(pane)
        }

        // INVITE → ring drawn on an attached screen.
        let attached = try panes.open(tui)
        guard await panes.wait(attached, for: [title, "waiting for calls"]) != nil else {
            result.note = "the attached TUI did not start"
            return result
        }
        result.ringAttached = await rings(panel, uri: daemon.uri.replacingOccurrences(of: "door@", with: "intercom@"),
                                          pane: attached, panes: panes, rounds: rounds)

        // Three screens while the panel rings with its peephole: the TUI, and two protocol screens
        // at one size (one encode a frame for the two); then one alone for the daemon's CPU with one.
        _ = try await panel.ring(daemon.uri.replacingOccurrences(of: "door@", with: "intercom@"))
        _ = await panes.wait(attached, for: ["IS CALLING"])
        panes.close(attached)
        let first = try ProtocolScreen(path: socket, panel: "porch")
        try? await Task.sleep(nanoseconds: 2_000_000_000)
        result.cpuOne = await ProcStat.cpuPercent(pid: pid, window: 10)
        let second = try ProtocolScreen(path: socket, panel: "porch")
        let third = try panes.open(tui)
        _ = await panes.wait(third, for: ["IS CALLING"])
        try? await Task.sleep(nanoseconds: 2_000_000_000)
        result.cpuThree = await ProcStat.cpuPercent(pid: pid, window: 10)
        result.rateBefore = [first.rate(over: 10), second.rate(over: 10)]
        // The TUI stopped for 10 s (a screen in a suspended ssh session): the others keep their rate.
        if let stopped = panes.pid(third) {
            kill(stopped, SIGSTOP)
            try? await Task.sleep(nanoseconds: 10_000_000_000)
            result.rateStopped = [first.rate(over: 10), second.rate(over: 10)]
            kill(stopped, SIGCONT)
            result.stoppedStillAttached = await panes.wait(third, for: ["IS CALLING"], timeout: 5) != nil
        }
        panes.close(third)
        first.detach()
        second.detach()
        await panel.hangup()

        // Attach/detach 1000 times: each attaches, subscribes to the panel's picture, waits for the
        // state, and leaves.
        for round in 1...1000 {
            attachOnce(socket)
            if round == 100 { result.memory100 = settledPrivateKB(pid) }
        }
        result.memory1000 = settledPrivateKB(pid)
        return result
    }

    /// `rounds` rings of the panel: INVITE → "IS CALLING" on the pane, then declined with `d`.
    static func rings(_ panel: SimulatedPanel, uri: String, pane: String, panes: BenchPanes, rounds: Int) async -> Samples {
        var samples = Samples()
        for _ in 0..<rounds {
            let invited = Date()
            guard (try? await panel.ring(uri)) != nil else { continue }
            if let shown = await panes.wait(pane, for: ["IS CALLING"]) { samples.add(shown.timeIntervalSince(invited) * 1000) }
            _ = try? panes.tmux(["send-keys", "-t", pane, "d"])
            _ = await panes.wait(pane, for: ["waiting for calls"])
            await panel.hangup()
        }
        return samples
    }

    static func attachOnce(_ socket: String) {
        guard let client = try? ControlClient(path: socket, timeout: .seconds(5)) else { return }
        try? client.send(ControlRequest(action: .attach(screen: "bench")))
        try? client.send(ControlRequest(action: .picture(PictureRequest(source: .panel("porch"), width: 320, height: 180, fps: 5))))
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while let line = try? client.readLine(until: deadline), !line.contains("\"event\":\"state\"") {}
        client.finishSending()
        while (try? client.readLine(until: deadline)) ?? nil != nil {}
    }

    /// Private memory once the daemon has dropped the last connections (a moment for its threads to end).
    static func settledPrivateKB(_ pid: Int32) -> Double {
        Thread.sleep(forTimeInterval: 1)
        return ProcStat.privateKB(pid: pid)
    }
}
