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

    /// Every stdout line so far.
    var allLines: [String] { lock.withLock { lines.map(\.1) } }

    var cpuSeconds: Double { ProcStat.cpuSeconds(pid: pid) }
    var rssMB: Double { ProcStat.rssMB(pid: pid) }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(pid, SIGKILL) }
    }
}
