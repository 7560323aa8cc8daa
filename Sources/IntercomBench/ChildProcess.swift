import Foundation

/// A program the bench runs beside itself, with its stdout lines as they arrive and /proc figures.
final class ChildProcess: @unchecked Sendable {
    // `lines` and `buffer` are guarded by `lock`; Process is only touched from the bench's task.
    private let process = Process()
    private let lock = NSLock()
    private var lines: [(Date, String)] = []
    private var buffer = Data()
    private let stdin = Pipe()

    init(_ path: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        process.standardInput = stdin
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            let now = Date()
            self.lock.withLock {
                self.buffer.append(data)
                while let newline = self.buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: self.buffer[self.buffer.startIndex..<newline], as: UTF8.self)
                    self.buffer.removeSubrange(self.buffer.startIndex...newline)
                    self.lines.append((now, line))
                }
            }
        }
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    func write(_ line: String) {
        stdin.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// The first line after index `from` containing `text`, with when it was read; waits up to `timeout`.
    func waitLine(containing text: String, after from: Int = 0, timeout: Double = 10) async -> (index: Int, time: Date, line: String)? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found = lock.withLock { () -> (Int, Date, String)? in
                guard from < lines.count else { return nil }
                for i in from..<lines.count where lines[i].1.contains(text) { return (i, lines[i].0, lines[i].1) }
                return nil
            }
            if let found { return found }
            try? await Task.sleep(nanoseconds: 200_000)
        }
        return nil
    }

    /// user+system CPU seconds so far, from /proc.
    var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command name: state is field 0, utime is 11, stime is 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident set size in MB.
    var rssMB: Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kb / 1024
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(pid, SIGKILL) }
    }
}
