import Foundation
import IntercomCore
@testable import IntercomSimulator
import Synchronization
import Testing
import IntercomTestSupport

/// The real `intercom watch` in tmux, playing a real RTSP server's stream (gst-rtsp-server, 25 fps)
/// beside a simulated panel's snapshots; what it draws is read from its status line.
@Suite("watch plays the live stream", .serialized)
struct WatchLiveTmuxTests {
    struct Session {
        var tmux: Tmux
        var http: SimulatedPanelHTTPServer
        var dir: TestDirectory

        /// `watch porch` in symbols mode, `rtsp` pointing at `rtspURL` with the panel's admin/admin.
        static func start(rtspURL: String, extra: String = "") async throws -> Session {
            let http = SimulatedPanelHTTPServer()
            _ = try http.start()
            let dir = try TestDirectory(prefix: "intercom-watch-live")
            let config = try IntercomBinary.writeConfig("""
                [panel porch]
                url = \(http.baseURL)
                user = admin
                password = admin
                rtsp = \(rtspURL)

                """, in: dir)
            var env: [String: String] = ["TERM": "tmux-256color", "COLORTERM": "truecolor"]
            for (key, value) in try IntercomBinary.environment(in: dir) { if let value { env[key] = value } }
            let command = "env -u NO_COLOR -u INTERCOM_CONFIG '\(try IntercomBinary.path())' watch --config '\(config.path)'"
                + " --graphics symbols \(extra) porch 2>'\(dir.path)/stderr'; echo WATCH-EXIT=$?; sleep 30"
            let tmux = try await Tmux(command: command, width: 160, height: 49, environment: env)
            return Session(tmux: tmux, http: http, dir: dir)
        }

        /// Waits for `text` on the screen; a timeout says what watch wrote to stderr.
        @discardableResult
        func waitFor(_ text: String, timeout: Duration = .seconds(15)) async throws -> String {
            do {
                return try await tmux.waitForScreen(containing: text, timeout: timeout)
            } catch {
                let stderr = (try? String(contentsOfFile: "\(dir.path)/stderr", encoding: .utf8)) ?? ""
                let screen = (try? await tmux.capture()) ?? ""
                let text = screen.split(separator: "\n").filter { $0.contains { $0.isLetter } }.joined(separator: "\n")
                throw HarnessError("\(error)\nscreen text:\n\(text)\nstderr:\n\(stderr)")
            }
        }

        func stop() async {
            await tmux.kill()
            http.stop()
        }

        /// The status line (the screen's last non-empty line).
        func status() async throws -> String {
            try await tmux.capture().split(separator: "\n").last { $0.contains(" q quits") }.map(String.init) ?? ""
        }

        /// The `#N` counter of pictures drawn, and when it was read.
        func counter() async throws -> (count: Int, at: ContinuousClock.Instant) {
            let line = try await status()
            let at = ContinuousClock.now
            guard let hash = line.range(of: " #") else { throw HarnessError("no counter in the status line: \(line)") }
            let digits = line[hash.upperBound...].prefix { $0.isNumber }
            guard let count = Int(digits) else { throw HarnessError("no counter in the status line: \(line)") }
            return (count, at)
        }
    }

    @Test func drawsAtLeastHalfTheFramesTheStreamSends() async throws {
        try await withLiveStreams {
            // 320×240 keeps the test server's encoder (≈ 3× cheaper than 640×480) from starving the
            // watch under a loaded machine; the 640×480 figure is a benchmark's.
            let server = try await RTSPTestServer.start(auth: .digest, user: "admin", password: "admin",
                                                        width: 320, height: 240, fps: 25)
            try await withCleanup({ await server.stop() }) {
                let s = try await Session.start(rtspURL: server.url())
                try await withCleanup({ await s.stop() }) {
                    try await s.waitFor("porch · symbols · live")
                    try await Task.sleep(for: .seconds(1))
                    // A ratio in one window, not an absolute rate: on a starved machine the test server's
                    // encoder falls behind too. What this holds is that watch draws the stream, newest frame
                    // wins, at the stream's pace rather than the stills' (2 a second): half of what arrives.
                    // How near it comes to all of them is `make bench`'s (BENCHMARKS.md "Live video", release):
                    // this debug build, two shards beside it, drew 81 of 102 (0.79) once in a quiet series
                    // (2026-12-02, run 5), its renderer's CPU and not the pacing being what fell short.
                    let sentBefore = server.framesSent() ?? 0
                    let first = try await s.counter()
                    try await Task.sleep(for: .seconds(4))
                    let last = try await s.counter()
                    let sent = (server.framesSent() ?? 0) - sentBefore
                    let seconds = Double((last.at - first.at).components.attoseconds) / 1e18 + Double((last.at - first.at).components.seconds)
                    let drawn = last.count - first.count
                    let status = try await s.status()
                    print("watch: drew \(drawn) of the \(sent) frames sent in \(String(format: "%.2f", seconds)) s")
                    #expect(sent >= 25, "the test server sent \(sent) frames in \(seconds) s: too starved to measure")
                    #expect(Double(drawn) >= 0.5 * Double(sent),
                            "drew \(drawn) of the \(sent) frames sent in \(seconds) s (\(Double(drawn) / seconds) a second); status: \(status)")
                    #expect(status.contains("live"))
                    // q while the stream plays: the decode thread is stopped and waited for, promptly (one
                    // read; 15 s leaves a loaded machine room and still tells a hang from a stop).
                    try await s.tmux.sendKeys("q")
                    try await s.waitFor("WATCH-EXIT=0", timeout: .seconds(15))
                }
            }
        }
    }

    @Test func wrongCredentialsSayOneClearLineAndSnapshotsKeepComing() async throws {
        try await withLiveStreams {
            let server = try await RTSPTestServer.start(auth: .both, user: "admin", password: "not-admin")
            try await withCleanup({ await server.stop() }) {
                let s = try await Session.start(rtspURL: server.url())
                try await withCleanup({ await s.stop() }) {
                    // The stream's URL (no password) and the key to fix (issue 25).
                    let line = "\(server.url()) refused the user/password; fix [panel porch] user/password: showing snapshots"
                    try await s.waitFor(line)
                    // Too long beside the full counters at 160 columns: they shrink, the line stays whole.
                    #expect(try await s.status().contains("porch · snapshots #"))
                    // Two more snapshots drawn: polled, so a slow machine waits longer instead of failing.
                    let first = try await s.counter()
                    var last = first
                    try await TestPatience.eventually(every: .milliseconds(200)) {
                        last = try await s.counter()
                        return last.count >= first.count + 2
                    }
                    #expect(last.count >= first.count + 2, "snapshots stopped at #\(last.count) (#\(first.count) at first)")
                    #expect(try await s.status().contains(line))
                    // The password never reaches the screen.
                    #expect(!(try await s.tmux.capture()).contains("not-admin"))
                }
            }
        }
    }

    @Test func aKilledStreamServerComesBackByItself() async throws {
        try await withLiveStreams {
            let first = try await RTSPTestServer.start(width: 320, height: 240, fps: 25)
            let port = first.port
            let url = first.url()
            let restarted = RestartedServer()
            try await withCleanup({ await first.stop(); await restarted.server.withLock { $0 }?.stop() }) {
                let s = try await Session.start(rtspURL: url)
                try await withCleanup({ await s.stop() }) {
                    try await s.waitFor("porch · symbols · live")
                    await first.kill()
                    // The line comes as soon as the stream is down, the snapshots a moment later.
                    try await s.waitFor(": showing snapshots")
                    try await s.waitFor("porch · symbols · snapshots")
                    let server = try await RTSPTestServer.start(width: 320, height: 240, fps: 25, port: port)
                    restarted.server.withLock { $0 = server }
                    try await s.waitFor("porch · symbols · live", timeout: .seconds(30))
                    // Live, and staying live: the line still says so 2 s on and frames kept coming. How many of
                    // the stream's frames watch draws is drawsAtLeastHalfTheFramesTheStreamSends's (and `make bench`'s)
                    // question; here, under `stress-ng` beside two shards, a just-restarted stream drew 19 of 52.
                    let back = try await s.counter()
                    try await Task.sleep(for: .seconds(2))
                    let drawn = try await s.counter().count - back.count
                    #expect(drawn >= 5, "live frames did not come back: \(drawn) drawn in 2 s")
                    let status = try await s.status()
                    #expect(status.contains("porch · symbols · live"), "\(status)")
                }
            }
        }
    }
}

/// The server the test starts again, which its cleanup stops.
private final class RestartedServer: Sendable {
    let server = Mutex<RTSPTestServer?>(nil)
}
