import Foundation
import IntercomBase

/// Output for people: one line at a time, written through at once (events are read live by scripts).
/// A failed write (a closed pipe, a full disk) loses the line but never the process; callers that
/// must react (the daemon's event printer) use `StandardStream` and look at the error.
public enum Console {
    public static func out(_ line: String) {
        StandardStream.output.write(line: line)
    }

    public static func error(_ line: String) {
        StandardStream.error.write(line: line)
    }

    /// The one-line error every command gives: `intercom: what failed; what to do`.
    /// Errors often quote what a panel or server said, so the message is made terminal-safe.
    public static func fail(_ message: String, code: Int32) -> Int32 {
        error("intercom: \(TerminalSafe.escape(message))")
        return code
    }
}
