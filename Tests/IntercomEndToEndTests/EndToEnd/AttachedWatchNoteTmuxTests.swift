import Foundation
import IntercomBase
@testable import IntercomSimulator
import IntercomTestSupport
import Testing

/// `intercom watch` attached to the daemon says what the own-engine `watch` says when the panel's
/// live stream refuses the user/password (WatchLiveTmuxTests.wrongCredentials…): the daemon plays
/// the stream, and its note comes to the screen with the panel's snapshots (issue 23).
@Suite("attached watch says why the stream is not playing", .serialized, .removesTestFolders)
struct AttachedWatchNoteTmuxTests {
    @Test func anAttachedWatchSaysTheStreamRefusedThePassword() async throws {
        try await withLiveStreams {
            let http = SimulatedPanelHTTPServer()
            _ = try http.start()
            let server = try await RTSPTestServer.start(auth: .both, user: "admin", password: "not-admin")
            let daemon = try DaemonProcess(config: DaemonProcess.simulatedPanelConfig(
                httpPort: http.port, entrance: "rtsp = \(server.url())"), name: "attached-watch-note")
            var screen: Tmux?
            try await withCleanup({
                await screen?.kill()
                _ = await daemon.stop()
                await server.stop()
                http.stop()
            }) {
                try await daemon.waitUntilStarted()
                var env: [String: String] = ["TERM": "tmux-256color", "COLORTERM": "truecolor"]
                for (key, value) in try IntercomBinary.environment(in: daemon.directory) { if let value { env[key] = value } }
                let watch = try await Tmux(command: "env -u NO_COLOR -u INTERCOM_CONFIG '\(try IntercomBinary.path())' watch entrance"
                    + " --graphics symbols --config '\(daemon.configURL.path)'; echo WATCH-EXIT=$?; sleep 30",
                                           width: 160, height: 49, environment: env)
                screen = watch
                do {
                    _ = try await watch.waitForScreen(containing: "attached, pid \(daemon.process.pid)", timeout: .seconds(15))
                } catch {
                    // Seen twice in `make test` and never alone: the screen and the daemon's log say which
                    // side stalled (the thrown error alone reaches the shard's output without its log).
                    FileHandle.standardError.write(Data("attached watch did not attach: \(error)\ndaemon:\n\(daemon.log.suffix(4000))\n".utf8))
                    throw error
                }
                let line = "\(server.url()) refused the user/password; fix [panel entrance] user/password: showing snapshots"
                let shown = try await watch.waitForScreen(containing: line, timeout: .seconds(20))
                #expect(!shown.contains("not-admin"), "the password reached the screen")
                try await watch.sendKeys("q")
                _ = try await watch.waitForScreen(containing: "WATCH-EXIT=0")
            }
        }
    }
}
