import Glibc

/// One question-and-answer round with a terminal: queries out in one write, then whatever
/// comes back until the caller says it is complete or a hard deadline passes (a terminal that
/// answers nothing costs exactly the budget, never a hang). The tty is in raw mode meanwhile.
public enum TerminalExchange {
    /// The same with the controlling terminal (`/dev/tty`); nil when there is none.
    public static func askControllingTerminal(_ queries: [UInt8], budget: Duration,
                                              complete: ([UInt8]) -> Bool) -> [UInt8]? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return ask(fd: fd, queries, budget: budget, complete: complete)
    }

    /// Nil when `fd` is no terminal or the queries could not be written (nothing was asked).
    public static func ask(fd: Int32, _ queries: [UInt8], budget: Duration,
                           complete: ([UInt8]) -> Bool) -> [UInt8]? {
        guard isatty(fd) == 1, let raw = RawMode(fd: fd) else { return nil }
        defer { raw.restore() }  // whatever happens below, the tty gets its settings back
        guard TerminalWriter(fd: fd, patience: budget).write(queries) else { return nil }

        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: budget)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { break }
            let (seconds, attoseconds) = left.components
            let ms = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, max(1, ms))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { if ready == 0 { continue } else { break } }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            received += buffer[0..<n]
            if complete(received) { break }
        }
        // Late answers would otherwise turn up as keystrokes in whatever reads the tty next.
        tcflush(fd, TCIFLUSH)
        return received
    }
}
