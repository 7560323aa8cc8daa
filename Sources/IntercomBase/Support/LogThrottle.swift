/// At most one log line per `interval`, with a count of what happened in between, so a flood (a
/// scan, a descriptor shortage, hostile packets) cannot fill the log. Each logging place keeps
/// its own.
package struct LogThrottle: Sendable {
    private let interval: Duration
    private var last: ContinuousClock.Instant?
    private var pending = 0

    package init(every interval: Duration) {
        self.interval = interval
    }

    /// Counts `count` more occurrences. When a line is due, returns how many occurred since the
    /// last line, these included; otherwise nil.
    package mutating func admit(_ count: Int = 1, now: ContinuousClock.Instant = .now) -> Int? {
        pending += count
        if let last, now - last < interval { return nil }
        last = now
        defer { pending = 0 }
        return pending
    }
}
