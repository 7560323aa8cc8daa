import Foundation

/// Output for people: one line at a time, written through at once (events are read live by scripts).
public enum Console {
    public static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    public static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The one-line error of INTERFACE.md: `intercom: what failed; what to do`.
    public static func fail(_ message: String, code: Int32) -> Int32 {
        error("intercom: \(message)")
        return code
    }
}
