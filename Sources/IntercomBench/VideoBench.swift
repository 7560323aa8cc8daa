import Foundation
import IntercomCore
import IntercomSimulator
import IntercomTestSupport

/// Issue 13: `intercom watch` playing a real RTSP server's stream in a tmux pane (symbols), beside
/// `ffmpeg -f null` decoding the same stream (the decode-only floor); the kiosk with 16 live sub
/// streams; what recording a call adds to the daemon. Release build, one run, the same machine.
enum VideoBench {
    struct Result {
        var firstLive = Samples()
        var drawnFPS: Double = .nan
        var watchCPU: Double = .nan
        var ffmpegCPU: Double = .nan
        var kioskCPU: Double = .nan
        var kioskLiveTiles = 0
        var callCPUPlain: Double = .nan
        var callCPURecorded: Double = .nan
        var clipBytes = 0
        var note = ""
    }

    static let tmux = "/usr/bin/tmux"

    static func run(intercom: String, work: String) async throws -> Result {
        var result = Result()
        guard FileManager.default.isExecutableFile(atPath: tmux) else {
            result.note = "tmux is not installed"
            return result
        }
        let http = SimulatedPanelHTTPServer()
        _ = try http.start()
        defer { http.stop() }
        try await watch(intercom: intercom, work: work, panelURL: http.baseURL, into: &result)
        try await kiosk(intercom: intercom, work: work, panelURL: http.baseURL, into: &result)
        try await recording(intercom: intercom, work: work, into: &result)
        return result
    }

    /// A tmux session running `command`; returns the pane's process id and a screen reader.
    struct Pane {
        var socket: String
        var pid: Int32
        func screen() -> String { (try? Spawn.run(VideoBench.tmux, ["-L", socket, "capture-pane", "-p", "-t", "b"])) ?? "" }
        func kill() {
            Foundation.kill(pid, SIGTERM)
            _ = try? Spawn.run(VideoBench.tmux, ["-L", socket, "kill-server"])
        }
        /// The `#N` counter of `watch`'s status line.
        func counter() -> Int? {
            guard let line = screen().split(separator: "\n").last(where: { $0.contains(" q quits") }),
                  let hash = line.range(of: " #") else { return nil }
            return Int(line[hash.upperBound...].prefix { $0.isNumber })
        }
        func wait(for text: String, timeout: Double) async -> Date? {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if screen().contains(text) { return Date() }
                try? await Task.sleep(nanoseconds: 5_000_000)
            }
            return nil
        }
    }

    static func pane(_ command: String, cols: Int, rows: Int, home: String) throws -> Pane {
        let socket = "intercom-video-bench-\(getpid())-\(UUID().uuidString.prefix(6))"
        try Spawn.run(tmux, ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "b", "-x", String(cols), "-y", String(rows),
                             "exec env HOME=\(home) TERM=tmux-256color COLORTERM=truecolor \(command)"], capture: false)
        let pid = Int32(try Spawn.run(tmux, ["-L", socket, "display", "-p", "-t", "b", "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return Pane(socket: socket, pid: pid)
    }

    static func writeConfig(_ text: String, home: String) throws -> String {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let path = "\(home)/config.ini"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    private static func watch(intercom: String, work: String, panelURL: String, into result: inout Result) async throws {
        let server = try await RTSPTestServer.start(auth: .digest, user: "admin", password: "admin", width: 640, height: 480, fps: 25)
        defer { Task { await server.stop() } }
        let home = "\(work)/video-watch"
        let config = try writeConfig("""
            [panel porch]
            url = \(panelURL)
            user = admin
            password = admin
            rtsp = \(server.url())
            """, home: home)
        let command = "\(intercom) watch --config \(config) --graphics symbols porch"
        // First live frame: from starting the command (process start included) to "live" on its status line.
        for _ in 0..<5 {
            let started = Date()
            let p = try pane(command, cols: 160, rows: 49, home: home)
            if let seen = await p.wait(for: "porch · symbols · live", timeout: 10) {
                result.firstLive.add(seen.timeIntervalSince(started) * 1000)
            }
            p.kill()
            try? await Task.sleep(nanoseconds: 300_000_000)
        }
        let p = try pane(command, cols: 160, rows: 49, home: home)
        defer { p.kill() }
        guard await p.wait(for: "porch · symbols · live", timeout: 10) != nil else {
            result.note = "watch showed no live picture"
            return
        }
        try? await Task.sleep(nanoseconds: 2_000_000_000)
        let first = p.counter() ?? 0
        let t0 = Date()
        result.watchCPU = await ProcStat.cpuPercent(pid: p.pid, window: 10)
        let last = p.counter() ?? 0
        result.drawnFPS = Double(last - first) / Date().timeIntervalSince(t0)
        p.kill()

        // The floor: FFmpeg decoding the same stream and throwing the pictures away.
        let ffmpeg = try ChildProcess("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-rtsp_transport", "tcp",
                                                          "-i", server.url().replacingOccurrences(of: "rtsp://", with: "rtsp://admin:admin@"),
                                                          "-f", "null", "-"])
        defer { ffmpeg.stop() }
        try? await Task.sleep(nanoseconds: 2_000_000_000)
        result.ffmpegCPU = await ProcStat.cpuPercent(pid: ffmpeg.pid, window: 10)
    }

    private static func kiosk(intercom: String, work: String, panelURL: String, into result: inout Result) async throws {
        let server = try await RTSPTestServer.start(auth: .none, width: 352, height: 288, fps: 15)
        defer { Task { await server.stop() } }
        let home = "\(work)/video-kiosk"
        let panels = (1...16).map { n in
            "[panel p\(n)]\nurl = \(panelURL)\nuser = admin\npassword = admin\nrtsp = \(server.url())\nrtsp_sub = \(server.url())\n"
        }.joined(separator: "\n")
        let port = try TUIBench.freeUDPPort()
        let config = try writeConfig("[sip]\nlisten = udp:127.0.0.1:\(port)\n\n" + panels, home: home)
        let p = try pane("\(intercom) tui --kiosk --config \(config) --graphics symbols --no-bell --no-notify --no-ring",
                         cols: 200, rows: 60, home: home)
        defer { p.kill() }
        // The streams need their first key frames; then 10 s of the steady state.
        try? await Task.sleep(nanoseconds: 6_000_000_000)
        result.kioskCPU = await ProcStat.cpuPercent(pid: p.pid, window: 10)
        result.kioskLiveTiles = liveDecodeThreads(pid: p.pid)
    }

    /// The decode threads of live pictures in a process (`intercom.live`).
    static func liveDecodeThreads(pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.filter { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? "").hasPrefix("intercom.live")
        }.count
    }

    /// The daemon answering the simulated panel's video call, 10 s of the call measured, with
    /// `record = off` and then `record = calls`.
    private static func recording(intercom: String, work: String, into result: inout Result) async throws {
        for record in ["off", "calls"] {
            let panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(dataDirectory: "\(work)/rec-panel-\(record)", videoFPS: 15))
            let home = "\(work)/video-record-\(record)"
            let daemon = try await BenchDaemon.start(intercom: intercom, home: home, config: BenchConfig.sip()
                + BenchConfig.panel("porch", url: panel.http.baseURL, "match = sip:100001@", "rtsp = off", "auto_answer = on",
                                    "record = \(record)"))
            _ = try await panel.ring(daemon.uri)
            if await daemon.process.waitLine(containing: "\"call_answered\"", after: daemon.firstEvent, timeout: 10) != nil {
                try? await Task.sleep(nanoseconds: 2_000_000_000)
                let cpu = await ProcStat.cpuPercent(pid: daemon.process.pid, window: 10)
                if record == "off" { result.callCPUPlain = cpu } else { result.callCPURecorded = cpu }
            }
            await panel.hangup()
            _ = await daemon.process.waitLine(containing: "\"call_ended\"", after: daemon.firstEvent, timeout: 10)
            if record == "calls" { result.clipBytes = clipBytes(home) }
            daemon.process.stop()
            await panel.stop()
        }
    }

    /// The size of the `.mkv` files under a home (the journal's clips).
    static func clipBytes(_ home: String) -> Int {
        guard let walker = FileManager.default.enumerator(atPath: home) else { return 0 }
        var total = 0
        for case let path as String in walker where path.hasSuffix(".mkv") {
            total += ((try? FileManager.default.attributesOfItem(atPath: "\(home)/\(path)"))?[.size] as? Int) ?? 0
        }
        return total
    }
}
