import IntercomBase

/// The warning for a retained command the broker replays at our subscribe (acting on it would open
/// the door by itself at every reconnect). The topic came from the broker: the line shows it
/// escaped, and offers the command that clears it only for a topic of a panel or door in the
/// config, single-quoted for the shell. At most one line a minute, with a count of the rest, so a
/// broker full of retained junk cannot fill the log.
struct RetainedCommandNotice {
    private var throttle = LogThrottle(every: .seconds(60))

    /// The line to log, or nil while the throttle holds it back. `known`: the topic is one of ours
    /// (a command topic of a configured panel or operator door).
    mutating func line(topic: String, known: Bool, now: ContinuousClock.Instant = .now) -> String? {
        guard let count = throttle.admit(now: now) else { return nil }
        let more = count > 1 ? " (\(count - 1) more since the last line)" : ""
        let shown = TerminalSafe.escape(topic)
        guard known, shown == topic else {
            return "mqtt: ignored a retained message on \(shown): not a command topic of a panel or door in the config\(more)"
        }
        return "mqtt: ignored a retained message on \(shown) (a command kept at the broker); publish commands without "
            + "retain, and clear it: mosquitto_pub -r -n -t \(Self.shellQuoted(topic))\(more)"
    }

    /// `'text'` with each `'` as `'\''`: one word to a POSIX shell, whatever the topic holds.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
