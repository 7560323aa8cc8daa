import Glibc

/// How many columns the terminal on a descriptor has: `TIOCGWINSZ`, as the screens' `WindowSize`
/// reads it. Asked here because the light `intercom` (log, ctl) must not link IntercomTerminal
/// and with it ncurses and chafa.
enum TerminalWidth {
    /// Nil when `fd` is no terminal (a pipe, a file) or the terminal reports no size.
    static func of(fd: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
