internal import CNcurses
import Foundation
import IntercomBase

/// The ncurses screen: text, colours, keys and resize. One owner thread, the one that made it:
/// ncurses is not thread-safe, and every call asserts it (as the phone asserts its thread). Keys are ncurses' codes as `Int32` (characters are their Unicode value; the
/// named ones are `Curses.Key`).
public final class Curses {
    public enum Color: Int16, Sendable { case normal = 0, title = 1, ringing = 2, ok = 3, warn = 4, dim = 5, keys = 6 }

    /// ncurses' codes for the keys that are no character.
    public enum Key {
        public static let resize: Int32 = KEY_RESIZE
        public static let up: Int32 = KEY_UP
        public static let down: Int32 = KEY_DOWN
        public static let pageUp: Int32 = KEY_PPAGE
        public static let pageDown: Int32 = KEY_NPAGE
        public static let home: Int32 = KEY_HOME
        public static let end: Int32 = KEY_END
        public static let backspace: Int32 = KEY_BACKSPACE
    }

    private let window: UnsafeMutablePointer<WINDOW>
    /// The thread that made the screen: the only one that may touch ncurses.
    private let owner = pthread_self()
    public private(set) var cols = 80
    public private(set) var rows = 24
    /// A running hash of everything written since `erase()`: equal hashes on two turns mean
    /// ncurses will send nothing, so a picture drawn beside the text is still intact.
    public private(set) var contentHash = Hasher()
    /// The terminal hung up (ssh dropped, window closed): there is no one to show anything to.
    public private(set) var terminalGone = false

    /// `interruptKeys`: false passes Ctrl-C and Ctrl-D as keys instead of signals (raw mode).
    public init(interruptKeys: Bool = true) throws(TerminalError) {
        setlocale(LC_ALL, "")
        // ncurses waits this long after ESC for the rest of a sequence; 25 ms keeps keys snappy.
        setenv("ESCDELAY", "25", 1)
        guard isatty(0) == 1, isatty(1) == 1 else { throw .notATerminal }
        guard let window = initscr() else { throw .notATerminal }
        self.window = window
        if interruptKeys { cbreak() } else { raw() }
        noecho()
        nonl()
        keypad(window, true)
        // ncurses must never move existing screen content (scroll, insert/delete lines or
        // characters): it does not know about the picture, which would move with it.
        idlok(window, false)
        idcok(window, false)
        scrollok(window, false)
        curs_set(0)
        if has_colors() {
            start_color()
            use_default_colors()
            init_pair(Color.title.rawValue, Int16(COLOR_CYAN), -1)
            init_pair(Color.ringing.rawValue, Int16(COLOR_BLACK), Int16(COLOR_YELLOW))
            init_pair(Color.ok.rawValue, Int16(COLOR_GREEN), -1)
            init_pair(Color.warn.rawValue, Int16(COLOR_RED), -1)
            init_pair(Color.dim.rawValue, Int16(COLOR_BLUE), -1)
            init_pair(Color.keys.rawValue, Int16(COLOR_BLACK), Int16(COLOR_WHITE))
        }
        updateSize()
    }

    /// Traps in debug builds when ncurses is touched off the thread that made the screen.
    private func assertOnOwner(file: StaticString = #fileID, line: UInt = #line) {
        assert(pthread_equal(owner, pthread_self()) != 0, "ncurses touched off its thread", file: file, line: line)
    }

    public func end() { assertOnOwner(); endwin() }

    public func updateSize() {
        assertOnOwner()
        cols = Int(getmaxx(window))
        rows = Int(getmaxy(window))
    }

    /// Waits up to `milliseconds` for a key; nil when none came. Returns early without a key
    /// when `wakeFD` becomes readable (the caller drains it).
    public func key(waiting milliseconds: Int, wakeFD: Int32 = -1) -> Int32? {
        assertOnOwner()
        // ncurses may hold keys it already read (the rest of a burst): those come first.
        wtimeout(window, 0)
        let buffered = wgetch(window)
        if buffered != ERR { return buffered }
        var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, Int32(clamping: milliseconds))
        if ready > 0, fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            terminalGone = true
            return nil
        }
        // Keys, and KEY_RESIZE after a SIGWINCH cut the poll short.
        guard ready != 0 || errno == EINTR || fds[0].revents != 0 else { return nil }
        let key = wgetch(window)
        return key == ERR ? nil : key
    }

    public func erase() {
        assertOnOwner()
        werase(window)
        contentHash = Hasher()
    }

    /// Writes `text` at a position, cut to the screen width. Screen text quotes panels, operators
    /// and callers: control characters are spelt out (`TerminalSafe`), never handed to ncurses.
    public func put(_ row: Int, _ column: Int, _ text: String, _ color: Color = .normal, bold: Bool = false, reverse: Bool = false) {
        assertOnOwner()
        guard row >= 0, row < rows, column < cols else { return }
        let text = TerminalSafe.escape(text)
        contentHash.combine(row)
        contentHash.combine(column)
        contentHash.combine(text)
        contentHash.combine(color.rawValue)
        var attributes = intercom_color_pair(Int32(color.rawValue))
        if bold { attributes |= intercom_attr_bold() }
        if reverse { attributes |= intercom_attr_reverse() }
        wattr_on(window, attr_t(attributes), nil)
        let room = max(0, cols - max(0, column))
        mvwaddstr(window, Int32(row), Int32(max(0, column)), String(text.prefix(room)))
        wattr_off(window, attr_t(attributes), nil)
    }

    /// A full line, padded, in a colour (title and key bars).
    public func bar(_ row: Int, _ text: String, _ color: Color) {
        assertOnOwner()
        // Never the bottom-right cell: writing it leaves terminals in a pending-wrap state that
        // our saved/restored cursor around the picture does not survive.
        let width = row == rows - 1 ? cols - 1 : cols
        put(row, 0, text.padding(toLength: width, withPad: " ", startingAt: 0), color)
    }

    public func refresh() { assertOnOwner(); wrefresh(window) }

    /// Makes ncurses rewrite these lines whole on the next refresh, blanks included.
    public func redrawLines(from row: Int, count: Int) { assertOnOwner(); wredrawln(window, Int32(row), Int32(count)) }

    /// Forces ncurses to repaint everything on the next refresh (after a resize the picture
    /// area is drawn by us, so ncurses' idea of it must be wiped).
    public func invalidate() { assertOnOwner(); clearok(window, true) }
}
