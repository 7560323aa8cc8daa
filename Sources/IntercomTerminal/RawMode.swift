import Glibc

/// A tty switched to raw input (no echo, no line buffering, no signals from keys) for as long
/// as this value lives; the saved settings come back in `deinit`, so an early return or throw
/// can't leave the user's shell without echo.
public struct RawMode: ~Copyable {
    private let fd: Int32
    private let saved: termios

    /// Nil when `fd` is not a terminal.
    public init?(fd: Int32) {
        var current = termios()
        guard tcgetattr(fd, &current) == 0 else { return nil }
        saved = current
        self.fd = fd
        var raw = current
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        // Reads return at once; deadlines are kept with poll().
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        tcsetattr(fd, TCSANOW, &raw)
    }

    /// Puts the saved settings back now; `defer { raw.restore() }` also pins the lifetime.
    public func restore() {
        var restore = saved
        tcsetattr(fd, TCSANOW, &restore)
    }

    deinit { restore() }
}
