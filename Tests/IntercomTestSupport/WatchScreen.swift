import Foundation

/// `intercom watch ID` in tmux as a user runs it: truecolour, `--graphics symbols` (so the watch
/// line can be read off the screen), stderr to a file, and `WATCH-EXIT=N` printed when it ends.
/// A wait that fails shows the screen's words and the stderr, which is what a failure needs.
package struct WatchScreen: Sendable {
    package let tmux: Tmux
    private let directory: TestDirectory

    /// Starts `intercom watch` on `id` with the config at `config`; `extra` are more options (shell words).
    package static func start(_ id: String, config: URL, in directory: TestDirectory, extra: String = "") async throws -> WatchScreen {
        var environment: [String: String] = ["TERM": "tmux-256color", "COLORTERM": "truecolor"]
        for (key, value) in try IntercomBinary.environment(in: directory) { if let value { environment[key] = value } }
        let command = "env -u NO_COLOR -u INTERCOM_CONFIG '\(try IntercomBinary.path())' watch --config '\(config.path)'"
            + " --graphics symbols --log-level info \(extra) \(id) 2>'\(directory.path)/stderr'; echo WATCH-EXIT=$?; sleep 30"
        let tmux = try await Tmux(command: command, width: 220, height: 30, environment: environment)
        return WatchScreen(tmux: tmux, directory: directory)
    }

    package func waitFor(_ text: String, timeout: Duration = TestPatience.condition) async throws {
        do {
            _ = try await tmux.waitForScreen(containing: text, timeout: timeout)
        } catch {
            let stderr = (try? String(contentsOfFile: "\(directory.path)/stderr", encoding: .utf8)) ?? ""
            let screen = (try? await tmux.capture()) ?? ""
            let lines = screen.split(separator: "\n").filter { $0.contains { $0.isLetter } }.joined(separator: "\n")
            throw HarnessError("\(error)\nscreen text:\n\(lines)\nstderr:\n\(stderr)")
        }
    }

    /// `q`, then the exit status 0. Quitting stops the stream's decode thread and waits for it: a
    /// matter of one read, so it keeps a bound of its own (15 s, room for a loaded machine).
    package func quit() async throws {
        try await tmux.sendKeys("q")
        try await waitFor("WATCH-EXIT=0", timeout: .seconds(15))
    }

    package func kill() async { await tmux.kill() }
}
