import Foundation

/// A private tmux server (own `-L` socket, `-f /dev/null`) running one command in session `t`
/// with a fixed size, for driving and screen-scraping the TUI. `remain-on-exit` is set at server
/// start, so the final screen and exit status stay readable after the command ends.
package final class Tmux: @unchecked Sendable {
    package let socketName: String
    package let session = "t"
    package let directory: TestDirectory
    private let tmuxPath: String
    private let lock = NSLock()
    private var killed = false
    private var socketPath: String?  // tmux leaves its socket file behind after kill-server

    /// Starts the server and the session running `command` (a shell command line).
    package init(command: String, width: Int = 120, height: Int = 40, environment: [String: String] = [:]) async throws {
        tmuxPath = try ExternalTool.path("tmux")
        directory = try TestDirectory(prefix: "intercom-tmux")
        socketName = "intercom-\(getpid())-\(UUID().uuidString.prefix(8))"
        var args = ["start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";",
                    "new-session", "-d", "-s", session, "-x", String(width), "-y", String(height)]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { args += ["-e", "\(key)=\(value)"] }
        args.append(command)
        do {
            try await tmux(args)
            let path = try await tmux(["display-message", "-p", "#{socket_path}"]).trimmingCharacters(in: .whitespacesAndNewlines)
            lock.withLock { socketPath = path }
        } catch {
            await kill()
            throw error
        }
    }

    /// `send-keys` with tmux key names, e.g. `sendKeys("q")`, `sendKeys("Enter")`, `sendKeys("C-c")`.
    package func sendKeys(_ keys: String...) async throws {
        try await tmux(["send-keys", "-t", session] + keys)
    }

    /// Sends raw bytes as the terminal would (`send-keys -H`), escape sequences included.
    package func sendBytes(_ bytes: [UInt8]) async throws {
        try await tmux(["send-keys", "-t", session, "-H"] + bytes.map { String($0, radix: 16) })
    }

    /// Types `text` literally (`send-keys -l`).
    package func sendLiteral(_ text: String) async throws {
        try await tmux(["send-keys", "-t", session, "-l", text])
    }

    /// Pastes `text` as a terminal does (`paste-buffer -p`): between the bracketed-paste marks
    /// when the program asked for them (`CSI ? 2004 h`), bare otherwise.
    package func paste(_ text: String) async throws {
        try await tmux(["set-buffer", "-b", "intercom-test", "--", text])
        try await tmux(["paste-buffer", "-p", "-d", "-b", "intercom-test", "-t", session])
    }

    /// The visible screen as text (`capture-pane -p`; `escapes` keeps colour sequences, `-J` joins wraps).
    /// `includeHistory` (`-S -`) adds lines scrolled off the top: after a resize to more rows, the
    /// "Pane is dead" line can push earlier output there.
    package func capture(escapes: Bool = false, includeHistory: Bool = false) async throws -> String {
        try await tmux(
            ["capture-pane", "-p", "-J"] + (escapes ? ["-e"] : []) + (includeHistory ? ["-S", "-"] : []) + ["-t", session])
    }

    /// Polls the screen until it contains `text`; returns that screen. A timeout shows the last screen
    /// seen and whether the pane's command had exited (and how).
    @discardableResult
    package func waitForScreen(containing text: String, timeout: Duration = TestPatience.condition) async throws -> String {
        var screen = ""
        if try await TestPatience.eventually(within: timeout, every: .milliseconds(50), {
            screen = try await capture()
            return screen.contains(text)
        }) { return screen }
        let pane = (try? await paneStatus()).map { $0.dead ? "exited (status \($0.status.map(String.init) ?? "?"))" : "running" }
        throw HarnessError.timeout("\"\(text)\" on the tmux screen (the pane's command: \(pane ?? "unknown"))",
                                   after: timeout, log: screen)
    }

    /// Appends everything the pane's program writes from now on, escape sequences and all, to
    /// `path` (`pipe-pane`): what the terminal would receive, before tmux interprets it.
    package func pipeOutput(to path: String) async throws {
        try await tmux(["pipe-pane", "-t", session, "-O", "cat >> '\(path)'"])
    }

    /// `resize-window`: the app sees SIGWINCH / KEY_RESIZE.
    package func resize(width: Int, height: Int) async throws {
        try await tmux(["resize-window", "-t", session, "-x", String(width), "-y", String(height)])
    }

    /// Whether the command has exited, and its status if so.
    package func paneStatus() async throws -> (dead: Bool, status: Int32?) {
        let out = try await tmux(["display-message", "-p", "-t", session, "#{pane_dead} #{pane_dead_status}"])
        let parts = out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        let dead = parts.first == "1"
        return (dead, dead && parts.count > 1 ? Int32(parts[1]) : nil)
    }

    /// The pane's shell and the processes under it (the program it runs), shell first.
    package func paneProcesses() async throws -> [Int32] {
        let shell = try await tmux(["display-message", "-p", "-t", session, "#{pane_pid}"])
        guard let root = Int32(shell.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw HarnessError("no pane pid: \(shell)") }
        return [root] + ProcessTree.descendants(of: root)
    }

    /// Every thread's stack of each process under the pane's shell (`gdb -batch`), for a test whose
    /// screen never came: a stuck start says where it waits. Best effort: what gdb could not read is
    /// said in the text instead.
    package func backtraces() async -> String {
        guard let gdb = try? ExternalTool.path("gdb") else { return "(no gdb here to show the pane's stacks)" }
        guard let processes = try? await paneProcesses() else { return "(no pane pid)" }
        var text = ""
        for pid in processes.dropFirst() {
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            let out = try? await Subprocess.run(gdb, ["-batch", "-nx", "-p", String(pid), "-ex", "thread apply all bt 12"],
                                                logDirectory: directory.url, timeout: .seconds(60))
            text += "\n--- pid \(pid) (\(name)):\n" + (out.map { $0.stdout.isEmpty ? $0.stderr : $0.stdout } ?? "(gdb failed)")
        }
        return text
    }

    /// `kill-server` on our socket only.
    package func kill() async {
        guard markKilled() else { return }
        _ = try? await tmux(["kill-server"])
        removeSocket()
    }

    private func removeSocket() {
        if let path = lock.withLock({ socketPath }), path.contains(socketName) { unlink(path) }
    }

    private func markKilled() -> Bool {
        lock.withLock {
            if killed { return false }
            killed = true
            return true
        }
    }

    /// Runs one tmux client command against our server; throws with stderr on failure.
    @discardableResult
    private func tmux(_ args: [String]) async throws -> String {
        let r = try await Subprocess.run(
            tmuxPath, ["-L", socketName, "-f", "/dev/null"] + args,
            environment: ["TMUX": nil], logDirectory: directory.url)
        guard r.status == 0 else {
            throw HarnessError("tmux \(args.joined(separator: " ")) failed (\(r.status)): \(r.stderr)")
        }
        return r.stdout
    }

    deinit {
        guard markKilled() else { return }
        // Synchronous best effort: a short-lived client, not waited for on the cooperative pool.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tmuxPath)
        p.arguments = ["-L", socketName, "-f", "/dev/null", "kill-server"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        if (try? p.run()) != nil { p.waitUntilExit() }
        removeSocket()
    }
}
