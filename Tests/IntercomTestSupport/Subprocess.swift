import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One external program started by a test (sipp, linphonec, kamailio, ...).
///
/// - stdout/stderr go to files in `logDirectory` (never pipes, so a chatty peer cannot block on a full pipe);
/// - stdin is a pipe when `stdin: true`, else /dev/null;
/// - `stop()` (and deinit) sends SIGTERM, then SIGKILL, only to the PID we started (and to its
///   process group it leads, so a forking daemon's workers go too).
package final class Subprocess: @unchecked Sendable {
    package enum Stream: Sendable { case stdout, stderr, either }

    package let name: String
    package let executable: String
    package let arguments: [String]
    package let stdoutURL: URL
    package let stderrURL: URL
    /// The PID we spawned; it leads its own process group (so `stop()` reaches its children too).
    package let pid: pid_t

    private let stdinFD: Int32?
    private let lock = NSLock()
    private var stopped = false
    private var stdinClosed = false
    private var status: Int32?  // raw waitpid status once reaped

    /// SIGPIPE would kill the whole test runner when a peer dies before we write to its stdin.
    private static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Starts `executable` (a name looked up in PATH, or a path) at once, with posix_spawn.
    /// (Not Foundation `Process`: on Linux it notices an exit only when every inheritor of its
    /// internal socket is gone, so a client that leaves a daemon behind, like `tmux new-session`,
    /// never "exits". posix_spawn + waitpid also lets the child lead its own process group.)
    /// - environment: merged over the test runner's environment; a `nil` value removes a variable.
    package init(
        _ executable: String,
        _ arguments: [String],
        name: String? = nil,
        environment: [String: String?] = [:],
        workingDirectory: URL? = nil,
        logDirectory: URL,
        stdin: Bool = false
    ) throws {
        _ = Subprocess.ignoreSIGPIPE
        let path = try ExternalTool.path(executable)
        let label = name ?? (path as NSString).lastPathComponent
        self.name = label
        self.executable = path
        self.arguments = arguments
        // Unique log names so several processes can share one directory.
        let stamp = "\(label)-\(UUID().uuidString.prefix(8))"
        stdoutURL = logDirectory.appendingPathComponent("\(stamp).stdout.log")
        stderrURL = logDirectory.appendingPathComponent("\(stamp).stderr.log")

        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }

        let outFD = open(stdoutURL.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let errFD = open(stderrURL.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let nullFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(outFD); close(errFD); close(nullFD) }
        guard outFD >= 0, errFD >= 0, nullFD >= 0 else { throw HarnessError("cannot open log files in \(logDirectory.path)") }
        var pipeFDs: [Int32] = [-1, -1]
        if stdin {
            guard pipe(&pipeFDs) == 0 else { throw HarnessError("pipe failed: errno \(errno)") }
            // (pipe2 is hidden from Swift; the tiny window is covered by closefrom in the child.)
            _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(pipeFDs[1], F_SETFD, FD_CLOEXEC)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin ? pipeFDs[0] : nullFD, 0)
        posix_spawn_file_actions_adddup2(&actions, outFD, 1)
        posix_spawn_file_actions_adddup2(&actions, errFD, 2)
        // Other tests' pipes and sockets must not leak into this child (it would keep them open).
        if let closeFrom = Subprocess.addCloseFrom { _ = closeFrom(&actions, 3) }
        if let workingDirectory {
            guard let chdir = Subprocess.addChdir else { throw HarnessError("posix_spawn_file_actions_addchdir_np unavailable") }
            _ = chdir(&actions, workingDirectory.path)
        }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        posix_spawnattr_setpgroup(&attr, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attr, &mask)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attr, argv, envp)
        if stdin { close(pipeFDs[0]) }
        guard rc == 0 else {
            if stdin { close(pipeFDs[1]) }
            throw HarnessError("could not start \(path): \(String(cString: strerror(rc)))")
        }
        pid = child
        stdinFD = stdin ? pipeFDs[1] : nil
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    /// glibc ≥ 2.34 / 2.29 extensions, looked up at run time (the Swift Glibc module hides `_np` calls).
    private static let addCloseFrom: AddCloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }
    private static let addChdir: AddChdir? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: AddChdir.self) }

    /// Reaps the child if it has exited (non-blocking); returns the raw wait status then.
    private func poll() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let status { return status }
        var raw: Int32 = 0
        let r = waitpid(pid, &raw, WNOHANG)
        if r == pid {
            status = raw
        } else if r < 0 && errno == ECHILD {
            status = 0x7f00  // reaped elsewhere: report "exited 127"
        }
        return status
    }

    package var isRunning: Bool { poll() == nil }

    /// Exit code once the process has ended (the signal number if it was killed by one), else nil.
    package var exitStatus: Int32? {
        guard let raw = poll() else { return nil }
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
    }

    /// True once the process has ended by a signal.
    package var wasSignalled: Bool {
        guard let raw = poll() else { return false }
        return raw & 0x7f != 0
    }

    package var stdout: String { Self.read(stdoutURL) }
    package var stderr: String { Self.read(stderrURL) }
    /// stdout then stderr, for error messages.
    package var combinedOutput: String { "[\(name) stdout]\n\(stdout)\n[\(name) stderr]\n\(stderr)" }

    private static func read(_ url: URL) -> String {
        guard let data = try? Data(contentsOf: url) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: stdin

    /// Writes `line` plus a newline to stdin (requires `stdin: true`).
    package func write(line: String) throws {
        guard let fd = stdinFD else { throw HarnessError("\(name) was started without a stdin pipe") }
        let failure: Int32? = lock.withLock {
            if stdinClosed { return EBADF }
            var bytes = Array((line + "\n").utf8)[...]
            while !bytes.isEmpty {
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                bytes = bytes.dropFirst(n)
            }
            return nil
        }
        if let failure {
            throw HarnessError("writing \"\(line)\" to \(name) stdin failed (exited?): \(String(cString: strerror(failure)))"
                + HarnessError.tail(combinedOutput))
        }
    }

    /// Writes each line, sleeping `pacing` after each one (interactive tools act on lines immediately).
    package func write(lines: [String], pacing: Duration = .milliseconds(200)) async throws {
        for line in lines {
            try write(line: line)
            try await Task.sleep(for: pacing)
        }
    }

    package func closeStdin() {
        lock.withLock { closeStdinLocked() }
    }

    // MARK: waiting

    /// Polls the output until it contains `text`; returns the whole stream then.
    /// Throws on timeout or if the process exits without printing it.
    @discardableResult
    package func waitForOutput(
        containing text: String, in stream: Stream = .either, timeout: Duration = TestPatience.condition
    ) async throws -> String {
        var out = ""
        let printed = try await TestPatience.eventually(within: timeout, every: .milliseconds(50)) {
            let exited = !isRunning
            switch stream {
            case .stdout: out = stdout
            case .stderr: out = stderr
            case .either: out = stdout + "\n" + stderr
            }
            if out.contains(text) { return true }
            if exited {
                throw HarnessError("\(name) exited (status \(exitStatus ?? -1)) without printing \"\(text)\""
                    + HarnessError.tail(combinedOutput))
            }
            return false
        }
        guard printed else { throw HarnessError.timeout("\"\(text)\" from \(name)", after: timeout, log: combinedOutput) }
        return out
    }

    /// Waits for the process to exit and returns its status; throws on timeout (the process keeps running).
    @discardableResult
    package func waitForExit(timeout: Duration = TestPatience.condition) async throws -> Int32 {
        guard await TestPatience.eventually(within: timeout, { !isRunning }) else {
            throw HarnessError.timeout("\(name) (pid \(pid)) to exit", after: timeout, log: combinedOutput)
        }
        return exitStatus ?? -1
    }

    // MARK: stopping

    /// SIGTERM, wait up to `grace`, then SIGKILL. Safe to call more than once.
    package func stop(grace: Duration = .seconds(3)) async {
        guard beginStop() else { return }
        signalOwn(SIGTERM)
        if (try? await waitForExit(timeout: grace)) == nil {
            signalOwn(SIGKILL)
            _ = try? await waitForExit(timeout: .seconds(2))
        }
    }

    /// Immediate SIGKILL to the child and its group (fault tests); `waitForExit` to reap it.
    package func kill() {
        _ = beginStop()
        signalOwn(SIGKILL)
    }

    private func beginStop() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        closeStdinLocked()
        if stopped { return false }
        stopped = true
        return true
    }

    private func closeStdinLocked() {
        guard let fd = stdinFD, !stdinClosed else { return }
        stdinClosed = true
        close(fd)
    }

    /// Signals our child's whole process group (it leads one, holding only what it forked) and the child.
    /// Only while the child is not yet reaped: until then its PID (and group id) cannot be reused.
    private func signalOwn(_ sig: Int32) {
        lock.withLock {
            guard pid > 0, status == nil else { return }
            _ = Glibc.kill(-pid, sig)
            _ = Glibc.kill(pid, sig)
        }
    }

    deinit {
        lock.withLock { closeStdinLocked() }
        signalOwn(SIGKILL)
        // Reap so no zombie is left behind (SIGKILL is prompt).
        for _ in 0..<100 where isRunning { usleep(10_000) }
    }
}

extension Subprocess {
    /// Runs a short command to completion (e.g. a tmux client call) and returns status, stdout, stderr.
    package static func run(
        _ executable: String, _ arguments: [String],
        environment: [String: String?] = [:], logDirectory: URL, timeout: Duration = TestPatience.condition
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let p = try Subprocess(executable, arguments, environment: environment, logDirectory: logDirectory)
        defer {
            try? FileManager.default.removeItem(at: p.stdoutURL)
            try? FileManager.default.removeItem(at: p.stderrURL)
        }
        do {
            let status = try await p.waitForExit(timeout: timeout)
            return (status, p.stdout, p.stderr)
        } catch {
            p.kill()
            throw error
        }
    }
}
