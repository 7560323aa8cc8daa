import Foundation

/// Runs commands for the bench.
enum Spawn {
    /// Runs a command to its end and returns its stdout. posix_spawn, not Foundation's Process:
    /// a tmux server forked from the client inherits Process's internal socket, and Process then
    /// never sees the client exit. Output goes through a file, which the server cannot hold open.
    @discardableResult
    static func run(_ path: String, _ arguments: [String], capture: Bool = true) throws -> String {
        let outPath = NSTemporaryDirectory() + "intercom-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
        defer { unlink(outPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, capture ? outPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The bench's threads block signals (SIGCHLD, SIGTERM among them) and a child inherits the
        // mask: a tmux server forked from it then never reaped its panes' programs and outlived
        // kill-server. Every child starts with no signal blocked and the usual dispositions.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), usual = sigset_t()
        sigemptyset(&none)
        sigemptyset(&usual)
        for signal in [SIGCHLD, SIGPIPE, SIGHUP, SIGINT, SIGTERM] { sigaddset(&usual, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &usual)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard rc == 0 else { throw BenchError("cannot run \(path): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return capture ? ((try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "") : ""
    }
}
