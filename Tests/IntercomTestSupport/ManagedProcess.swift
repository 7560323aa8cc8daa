import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A peer process a test starts, waits for, restarts and stops: kamailio, mosquitto, the RTSP test
/// server, the simulators (`SimulatorProcess`).
/// One way to do it for all of them: start it in the foreground (so the PID we launched is the
/// server's), poll its readiness with a deadline while watching that it has not died, and keep every
/// run's output so a failing test shows the whole story across restarts.
package final class ManagedProcess: @unchecked Sendable {
    package let name: String
    private let lock = NSLock()
    private var process: Subprocess?
    /// The last run, once stopped: its stdout stays readable after `stop()`.
    private var last: Subprocess?
    private var logs: [String] = []

    package init(name: String) { self.name = name }

    /// Starts `executable` and returns once `ready()` holds. Throws with the process's output when it
    /// exits first or `timeout` passes (`waitingFor` says what was awaited).
    /// `environment` is merged over the test runner's (a `nil` value removes a variable); `stdin` gives
    /// it a pipe for `write(line:)`.
    package func start(_ executable: String, _ arguments: [String], environment: [String: String?] = [:],
                       workingDirectory: URL, logDirectory: URL, stdin: Bool = false,
                       waitingFor what: String, timeout: Duration = TestPatience.condition, every interval: Duration = .milliseconds(20),
                       ready: () -> Bool) async throws {
        let p = try Subprocess(executable, arguments, name: name, environment: environment, workingDirectory: workingDirectory,
                               logDirectory: logDirectory, stdin: stdin)
        lock.withLock { process = p }
        let started = try await TestPatience.eventually(within: timeout, every: interval) {
            if ready() { return true }
            guard p.isRunning else {
                throw HarnessError("\(name) exited (status \(p.exitStatus ?? -1)) during startup" + HarnessError.tail(p.combinedOutput))
            }
            return false
        }
        if !started { throw HarnessError.timeout(what, after: timeout, log: p.combinedOutput) }
    }

    /// Starts it and returns once its stdout has a line beginning with `line` (a banner such as
    /// `READY port=`); returns that line.
    @discardableResult
    package func start(_ executable: String, _ arguments: [String], environment: [String: String?] = [:],
                       workingDirectory: URL, logDirectory: URL, readyLine line: String,
                       timeout: Duration = TestPatience.condition) async throws -> String {
        try await start(executable, arguments, environment: environment, workingDirectory: workingDirectory,
                        logDirectory: logDirectory, waitingFor: "\"\(line)\" from \(name)", timeout: timeout,
                        every: .milliseconds(20)) { self.line(beginning: line) != nil }
        return self.line(beginning: line) ?? line
    }

    /// The last run's exit status once it ended (the signal number if a signal ended it), else nil.
    package var exitStatus: Int32? { lock.withLock { process ?? last }?.exitStatus }

    /// This run's stdout so far, or the last run's once stopped ("" before the first start).
    package var stdout: String { lock.withLock { process ?? last }?.stdout ?? "" }

    /// The first line of this run's stdout that begins with `prefix`.
    package func line(beginning prefix: String) -> String? {
        stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    /// Waits until this run's output (stdout, stderr or either) contains `text`.
    @discardableResult
    package func waitForOutput(containing text: String, in stream: Subprocess.Stream = .either,
                               timeout: Duration = TestPatience.condition) async throws -> String {
        guard let p = lock.withLock({ process }) else { throw HarnessError("\(name) is not running") }
        return try await p.waitForOutput(containing: text, in: stream, timeout: timeout)
    }

    /// Sends `sig` to the running process alone (SIGSTOP/SIGCONT to freeze a server, SIGUSR1 to ring a panel).
    package func signal(_ sig: Int32) {
        guard let pid else { return }
        _ = Glibc.kill(pid, sig)
    }

    /// A line on the running process's stdin (started with `stdin: true`).
    package func write(line: String) throws {
        guard let p = lock.withLock({ process }) else { throw HarnessError("\(name) is not running") }
        try p.write(line: line)
    }

    /// SIGTERM, then SIGKILL after `grace`; its output is kept for `log`.
    package func stop(grace: Duration = .seconds(3)) async {
        guard let p = take() else { return }
        await p.stop(grace: grace)
        keep(p)
    }

    /// SIGKILL to the process and its group, as a crash or a power cut would; waits until the whole
    /// group is gone, so a new start does not race the old workers for the port.
    package func kill() async {
        guard let p = take() else { return }
        p.kill()
        _ = try? await p.waitForExit(timeout: .seconds(3))
        await TestPatience.eventually(within: .seconds(3)) { Glibc.kill(-p.pid, 0) != 0 }
        keep(p)
    }

    package var isRunning: Bool { lock.withLock { process?.isRunning ?? false } }

    /// The running process's PID (it leads its process group), while started.
    package var pid: pid_t? { lock.withLock { process?.pid } }

    /// All output so far, across restarts.
    package var log: String { lock.withLock { (logs + [process?.combinedOutput ?? ""]).joined(separator: "\n") } }

    private func take() -> Subprocess? {
        lock.withLock {
            defer { process = nil }
            return process
        }
    }

    private func keep(_ p: Subprocess) {
        let out = p.combinedOutput
        lock.withLock {
            logs.append(out)
            last = p
        }
    }

    deinit {
        // Subprocess's own deinit SIGKILLs a process still running; stop() is the graceful path.
        process?.kill()
    }
}

/// Whether something accepts TCP connections on 127.0.0.1:`port` (a connect that succeeds, then closed).
package enum TCPProbe {
    package static func accepts(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return LoopbackAddress.with(port: port) { connect(fd, $0, $1) } == 0
    }
}
