import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A peer process a test starts, waits for, restarts and stops: kamailio, mosquitto, a TLS server.
/// One way to do it for all of them: start it in the foreground (so the PID we launched is the
/// server's), poll its readiness with a deadline while watching that it has not died, and keep every
/// run's output so a failing test shows the whole story across restarts.
package final class ManagedProcess: @unchecked Sendable {
    package let name: String
    private let lock = NSLock()
    private var process: Subprocess?
    private var logs: [String] = []

    package init(name: String) { self.name = name }

    /// Starts `executable` and returns once `ready()` holds. Throws with the process's output when it
    /// exits first or `timeout` passes (`waitingFor` says what was awaited).
    package func start(_ executable: String, _ arguments: [String], workingDirectory: URL, logDirectory: URL,
                       waitingFor what: String, timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(20),
                       ready: () -> Bool) async throws {
        let p = try Subprocess(executable, arguments, name: name, workingDirectory: workingDirectory,
                               logDirectory: logDirectory)
        lock.withLock { process = p }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !ready() {
            if !p.isRunning {
                throw HarnessError("\(name) exited (status \(p.exitStatus ?? -1)) during startup" + HarnessError.tail(p.combinedOutput))
            }
            if clock.now >= deadline { throw HarnessError.timeout(what, after: timeout, log: p.combinedOutput) }
            try await Task.sleep(for: interval)
        }
    }

    /// SIGTERM, then SIGKILL after the grace; its output is kept for `log`.
    package func stop() async {
        guard let p = take() else { return }
        await p.stop()
        keep(p)
    }

    /// SIGKILL to the process and its group, as a crash or a power cut would; waits until the whole
    /// group is gone, so a new start does not race the old workers for the port.
    package func kill() async {
        guard let p = take() else { return }
        p.kill()
        _ = try? await p.waitForExit(timeout: .seconds(3))
        for _ in 0..<150 where Glibc.kill(-p.pid, 0) == 0 {
            try? await Task.sleep(for: .milliseconds(20))
        }
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
        lock.withLock { logs.append(out) }
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
