import Glibc

/// The terminal's size from `TIOCGWINSZ`: cells always, pixels when the terminal fills them in
/// (many leave ws_xpixel/ws_ypixel at 0). In the base, not beside the screens' terminal code, so
/// the light `intercom` (log, ctl) reads its width without linking ncurses and chafa.
public struct WindowSize: Sendable, Equatable {
    public var cols: Int
    public var rows: Int
    public var pixelWidth: Int
    public var pixelHeight: Int

    public init(cols: Int, rows: Int, pixelWidth: Int = 0, pixelHeight: Int = 0) {
        self.cols = cols
        self.rows = rows
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// Nil when `fd` is not a terminal or reports no size.
    public static func of(fd: Int32) -> WindowSize? {
        var ws = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return nil }
        return WindowSize(cols: Int(ws.ws_col), rows: Int(ws.ws_row),
                          pixelWidth: Int(ws.ws_xpixel), pixelHeight: Int(ws.ws_ypixel))
    }
}
