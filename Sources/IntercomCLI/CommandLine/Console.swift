import Foundation
import IntercomBase

/// Output for people: one line at a time, written through at once (events are read live by scripts).
/// A failed write (a closed pipe, a full disk) loses the line but never the process; callers that
/// must react (the daemon's event printer) use `StandardStream` and look at the error.
/// Everything goes out through `TerminalSafe.lines`: no control byte from a panel, an operator or
/// a server reaches the terminal even where a caller forgot to escape a field.
public enum Console {
    public static func out(_ line: String) {
        StandardStream.output.write(line: TerminalSafe.lines(line))
    }

    public static func error(_ line: String) {
        StandardStream.error.write(line: TerminalSafe.lines(line))
    }

    /// The one-line error every command gives: `intercom: what failed; what to do`.
    /// Errors often quote what a panel or server said, so the message is made terminal-safe.
    public static func fail(_ message: String, code: Int32) -> Int32 {
        error("intercom: \(TerminalSafe.escape(message))")
        return code
    }
}
