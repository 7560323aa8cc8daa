import Glibc

/// Asks tmux where our pane sits on the real terminal, for pictures passed through it.
/// Runs `tmux display-message -p` once per layout (start, resize), never longer than a short
/// deadline: a tmux that does not answer leaves the picture at the pane's own coordinates.
public enum TmuxPane {
    /// pane_top/pane_left count from the window's top-left; a status line at the top moves
    /// the window down by its height.
    static let format = "#{pane_top} #{pane_left} #{status-position} #{status}"

    public static func origin(environment: [String: String], deadline: Duration = .milliseconds(300)) -> PaneOrigin {
        guard let socket = environment["TMUX"], !socket.isEmpty else { return .zero }
        var arguments = ["tmux", "display-message", "-p"]
        if let pane = environment["TMUX_PANE"], !pane.isEmpty { arguments += ["-t", pane] }
        arguments.append(format)
        return run(arguments, environment: environment, deadline: deadline).flatMap(parse) ?? .zero
    }

    /// "TOP LEFT POSITION STATUS", e.g. "0 81 bottom on" → row 0, column 81.
    public static func parse(_ text: String) -> PaneOrigin? {
        let fields = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard fields.count >= 2, let top = Int(fields[0]), let left = Int(fields[1]) else { return nil }
        var statusLines = 0
        if fields.count >= 4, fields[2] == "top" {
            // `status` is on, off, or the number of status lines (2–5).
            statusLines = fields[3] == "off" ? 0 : (Int(fields[3]) ?? 1)
        }
        return PaneOrigin(row: top + statusLines, column: left)
    }

    /// The program's stdout, or nil when it cannot start, fails, or misses the deadline.
    private static func run(_ arguments: [String], environment: [String: String], deadline: Duration) -> String? {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { return nil }
        // Close-on-exec (pipe2 is hidden from Swift): no other child inherits our ends.
        for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { close(pipeFDs[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        close(pipeFDs[1])
        guard spawned == 0 else { return nil }

        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        var finished = false
        while clock.now < end {
            let (seconds, attoseconds) = clock.now.duration(to: end).components
            var pfd = pollfd(fd: pipeFDs[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(clamping: max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { break }
            let n = buffer.withUnsafeMutableBytes { read(pipeFDs[0], $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { finished = true; break }  // EOF: tmux is done
            output += buffer[0..<n]
        }
        var status: Int32 = 0
        // Late or stuck: it must not linger (nor become a zombie). After EOF it is exiting.
        if !finished { kill(pid, SIGKILL) }
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED && WEXITSTATUS == 0 are macros Swift cannot see.
        guard finished, status & 0x7f == 0, (status >> 8) & 0xff == 0 else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}
