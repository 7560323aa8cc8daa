/// Why the terminal layer cannot take the screen.
public enum TerminalError: Error, Sendable {
    /// stdin or stdout is not a terminal, or ncurses could not start on it.
    case notATerminal
}
