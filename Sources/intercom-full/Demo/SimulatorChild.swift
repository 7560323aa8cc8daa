import Foundation
import IntercomBase
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One `intercom-sim` child of `intercom demo`, started as every child of ours is (`ChildProcess`:
/// no shell, its own process group, so a Ctrl-C on the terminal reaches only the demo, which stops
/// its children in order). stdin is /dev/null (the keys are the screen's), stdout a pipe whose lines are kept
/// (the ready lines carry URLs and ports) and copied to `NAME.out`, stderr `NAME.log`, both in the demo's
/// private folder (what the simulators saw, e.g. a door opened through the operator, stays readable there).
final class SimulatorChild: Sendable {
    let name: String
    let pid: pid_t
    private let errorLog: String
    private let output = Mutex<[String]>([])
    /// The exit status once reaped; the pid is never signalled after that (it could be reused).
    private let status = Mutex<Int32?>(nil)

    private init(name: String, pid: pid_t, errorLog: String) {
        self.name = name
        self.pid = pid
        self.errorLog = errorLog
    }

    static func start(_ name: String, program: String, arguments: [String], environment: [String: String],
                      logs: String) throws(DemoError) -> SimulatorChild {
        let errorLog = logs + ".log"
        var pipeFDs: [Int32] = [-1, -1]
        // Close-on-exec, so the child gets its end only as stdout (pipe2 needs _GNU_SOURCE, which Glibc's module lacks).
        guard pipe(&pipeFDs) == 0, fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC) == 0,
              fcntl(pipeFDs[1], F_SETFD, FD_CLOEXEC) == 0 else {
            throw DemoError("cannot make a pipe for \(name): \(String(cString: strerror(errno)))")
        }
        let logFD = open(errorLog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard logFD >= 0 else {
            close(pipeFDs[0])
            close(pipeFDs[1])
            throw DemoError("cannot write \(errorLog): \(String(cString: strerror(errno)))")
        }
        let spawned = ChildProcess.spawn(program: program, argv0: "intercom", arguments: arguments,
                                         environment: environment, stdout: pipeFDs[1], stderr: logFD)
        close(pipeFDs[1])
        close(logFD)
        let pid: pid_t
        switch spawned {
        case .success(let started):
            pid = started
        case .failure(let error):
            close(pipeFDs[0])
            throw DemoError("cannot start \(program): \(error.message); install intercom-sim beside intercom")
        }
        let child = SimulatorChild(name: name, pid: pid, errorLog: errorLog)
        child.read(pipeFDs[0], copy: open(logs + ".out", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600))
        return child
    }

    /// Keeps every line of stdout and copies it to `copy` (the child writes a line per happening; the
    /// pipe is drained until it closes, so the child never blocks on it).
    private func read(_ fd: Int32, copy: Int32) {
        let thread = Thread { [self] in
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                if copy >= 0 { _ = buffer.withUnsafeBytes { Glibc.write(copy, $0.baseAddress, count) } }
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    output.withLock { lines in
                        lines.append(line)
                        if lines.count > 500 { lines.removeFirst(lines.count - 500) }
                    }
                }
            }
            close(fd)
            if copy >= 0 { close(copy) }
        }
        thread.name = "intercom.demo.\(name)"
        thread.start()
    }

    /// The first line of stdout that `matches` accepts, within `timeout`. Throws when the child
    /// exits first or stays silent, with the last line it wrote to stderr.
    func line<T: Sendable>(within timeout: Duration, _ matches: @Sendable (String) -> T?) async throws(DemoError) -> T {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            if let found = output.withLock({ $0.lazy.compactMap(matches).first }) { return found }
            if let code = reap() { throw DemoError("\(name) stopped (status \(code)): \(lastError)") }
            guard ContinuousClock.now < deadline else {
                throw DemoError("\(name) did not say it was ready within \(timeout): \(lastError)")
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private var lastError: String {
        let text = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").last.map(String.init) ?? "no message"
    }

    /// Sends `signal` unless the child is gone.
    func send(_ signal: Int32) {
        status.withLock { if $0 == nil { _ = kill(pid, signal) } }
    }

    /// The exit status if the child has ended (reaping it), else nil.
    private func reap() -> Int32? {
        status.withLock { known in
            if let known { return known }
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            guard result == pid || (result < 0 && errno == ECHILD) else { return nil }
            known = result == pid ? raw : -1
            return known
        }
    }

    /// SIGTERM, then SIGKILL if the child is still there after `grace`; returns once it is reaped.
    func stop(grace: Duration = .seconds(3)) async {
        guard reap() == nil else { return }
        send(SIGTERM)
        let deadline = ContinuousClock.now.advanced(by: grace)
        while reap() == nil {
            if ContinuousClock.now >= deadline {
                send(SIGKILL)
                // SIGKILL cannot be refused: the child is gone within moments.
                while reap() == nil { try? await Task.sleep(for: .milliseconds(10)) }
                return
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
