import Glibc

/// The one way bytes reach the terminal: unbuffered, so a frame arrives whole and at once
/// rather than when a buffer happens to fill; every byte or a clear failure. A short write
/// continues where it stopped, EINTR is retried, and a non-blocking descriptor that is full
/// (EAGAIN) is waited on until writable, for at most `patience` without progress, so a
/// terminal that stopped reading (a stalled ssh link, Ctrl-S) cannot hang the screen forever.
public struct TerminalWriter: Sendable {
    public let fd: Int32
    /// How long one write may wait for the terminal to take more bytes.
    public var patience: Duration

    public init(fd: Int32, patience: Duration = .seconds(2)) {
        self.fd = fd
        self.patience = patience
    }

    /// Standard output: the screen.
    public static let standardOutput = TerminalWriter(fd: 1)

    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// False when the terminal is gone or took nothing for `patience`; what was written stays written.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                offset += n
                continue
            }
            if n < 0, errno == EINTR { continue }
            guard n < 0, errno == EAGAIN || errno == EWOULDBLOCK, waitUntilWritable() else { return false }
        }
        return true
    }

    /// Polls for room to write; false when none came within `patience` or the terminal hung up.
    private func waitUntilWritable() -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: patience)
        while true {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&pfd, 1, max(1, milliseconds))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else {
                if ready == 0 { continue }
                return false
            }
            return pfd.revents & Int16(POLLOUT) != 0
        }
    }
}
