import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One hook program started with posix_spawn — never through a shell — in its own process
/// group, with default signal handling (the daemon ignores SIGTERM/SIGHUP, which exec would
/// otherwise pass on), stdin from /dev/null and stdout onto the daemon's stderr (stdout carries
/// the event stream). The hook gets descriptors 0, 1 and 2 and nothing else: liblinphone's SIP and
/// RTP sockets and curl's connections are made without close-on-exec, and a hook that left a child
/// behind would otherwise hold port 5060 after the daemon stopped.
enum HookProcess {
    static func spawn(program: String, arguments: [String], environment: [String: String]) -> Result<pid_t, HookSpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        closeFromThree(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        var code = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        // ETXTBSY: the program is being written (an editor saving it, or a descriptor another
        // fork briefly inherited); it clears within moments.
        for _ in 0..<5 where code == ETXTBSY {
            usleep(50_000)
            code = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        }
        guard code == 0 else { return .failure(HookSpawnError(message: String(cString: strerror(code)))) }
        return .success(pid)
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// Closes every descriptor from 3 up in the child. glibc 2.34+ has
    /// posix_spawn_file_actions_addclosefrom_np, declared only under _GNU_SOURCE, which Swift's
    /// Glibc module does not see; it is looked up by name instead. Without it (an older libc) each
    /// descriptor open now is closed by name: the daemon's own are made before any hook runs.
    private static func closeFromThree(_ actions: inout posix_spawn_file_actions_t) {
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            let addCloseFrom = unsafeBitCast(symbol, to: AddCloseFrom.self)
            if addCloseFrom(&actions, 3) == 0 { return }
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }

    /// Waits for `pid`; at `timeout` sends SIGTERM to its group, SIGKILL after `grace`.
    static func wait(_ pid: pid_t, timeout: Duration, grace: Duration = .seconds(2)) async -> HookOutcome {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var terminated = false
        var killDeadline = deadline
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                if terminated { return .timedOut }
                // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot see.
                let signal = status & 0x7f
                return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
            }
            if result < 0 && errno != EINTR { return terminated ? .timedOut : .exited(-1) }
            let now = clock.now
            if !terminated && now >= deadline {
                kill(-pid, SIGTERM)
                terminated = true
                killDeadline = now.advanced(by: grace)
            } else if terminated && now >= killDeadline {
                kill(-pid, SIGKILL)
                killDeadline = now.advanced(by: .seconds(3600))
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}

struct HookSpawnError: Error {
    var message: String
}
