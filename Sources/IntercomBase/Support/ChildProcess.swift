import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts a program the way every child of ours starts — hooks, the demo's simulators: with
/// posix_spawn (never a shell), in its own process group (a Ctrl-C on the terminal reaches only
/// us, and we stop the group), with default signal handling and an empty mask (we ignore or
/// block SIGTERM/SIGHUP, which exec would pass on), stdin from /dev/null, and descriptors 0, 1
/// and 2 only: liblinphone's SIP and RTP sockets and curl's connections are made without
/// close-on-exec, and a child that outlived us would otherwise hold port 5060.
public enum ChildProcess {
    /// `stdout` and `stderr` are descriptors of ours that become the child's 1 and 2. `foreground`:
    /// a terminal program the user works while we wait (the screen's `intercom watch`): it keeps
    /// our stdin and our process group, the terminal's foreground one, so it may read the keys.
    public static func spawn(program: String, argv0: String? = nil, arguments: [String], environment: [String: String],
                             stdout: Int32, stderr: Int32 = 2, foreground: Bool = false) -> Result<pid_t, ChildProcessError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if !foreground { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
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
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | (foreground ? 0 : POSIX_SPAWN_SETPGROUP)))

        let argv = ([argv0 ?? program] + arguments).map { strdup($0) } + [nil]
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
        guard code == 0 else { return .failure(ChildProcessError(message: String(cString: strerror(code)))) }
        return .success(pid)
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// Closes every descriptor from 3 up in the child. glibc 2.34+ has
    /// posix_spawn_file_actions_addclosefrom_np, declared only under _GNU_SOURCE, which Swift's
    /// Glibc module does not see; it is looked up by name instead. Without it (an older libc) each
    /// descriptor open now is closed by name.
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
}

/// Why a child did not start (strerror of posix_spawn's answer).
public struct ChildProcessError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
