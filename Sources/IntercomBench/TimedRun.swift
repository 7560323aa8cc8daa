import Foundation

/// One program run to its end, timed from just before posix_spawn to just after waitpid, so two
/// programs measured this way pay the same spawn and reaping costs.
struct TimedRun {
    var milliseconds: Double
    /// User plus system CPU time of the program (its own threads, not its children's), in ms: what
    /// it cost whatever else the machine was doing.
    var cpuMilliseconds: Double
    /// The exit status (WEXITSTATUS), or -1 when the program did not exit normally.
    var status: Int32
    var stdout: String

    /// Runs `path` with `environment` (the whole environment) and `input` on stdin (from a file);
    /// stdout goes through a file, stderr to /dev/null.
    static func run(_ path: String, _ arguments: [String], environment: [String: String],
                    input: String? = nil, scratch: String) throws -> TimedRun {
        let outPath = "\(scratch)/timed-\(getpid()).out"
        let inPath = "\(scratch)/timed-\(getpid()).in"
        defer { unlink(outPath); unlink(inPath) }
        try (input ?? "").write(toFile: inPath, atomically: false, encoding: .utf8)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard rc == 0 else { throw BenchError("cannot run \(path): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let end = DispatchTime.now().uptimeNanoseconds
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
        // WIFEXITED / WEXITSTATUS by hand: the C macros do not import.
        let exited = status & 0x7f == 0
        return TimedRun(milliseconds: Double(end - start) / 1e6, cpuMilliseconds: cpu, status: exited ? (status >> 8) & 0xff : -1,
                        stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "")
    }
}
