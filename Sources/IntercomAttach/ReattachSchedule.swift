/// When an attached screen whose daemon went away tries again, and when it has been away long
/// enough to say how to start the daemon. The waits double from `firstWait` to `longestWait`: a
/// daemon restarted by systemd is back within a second or two and is found at once, one stopped
/// for good costs a connect every 5 s. A value on any clock, so a test runs it on a manual one.
public struct ReattachSchedule<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    public static var firstWait: Duration { .milliseconds(200) }
    public static var longestWait: Duration { .seconds(5) }
    /// Away this long, the screen says how to start the daemon (`DaemonAway.long`).
    public static var hintAfter: Duration { .seconds(30) }

    /// When the daemon went away; nil while attached.
    public private(set) var awaySince: Instant?
    private var wait = Duration.zero

    public init() {}

    /// The daemon went away at `now`: the wait before the first try.
    public mutating func wentAway(at now: Instant) -> Duration {
        awaySince = now
        wait = Self.firstWait
        return wait
    }

    /// A try failed (nothing answers, or a daemon of another config): the wait before the next.
    public mutating func failed() -> Duration {
        wait = min(wait * 2, Self.longestWait)
        return wait
    }

    /// Attached again: the next absence starts over from `firstWait`.
    public mutating func attached() {
        awaySince = nil
        wait = .zero
    }

    /// How long the daemon has been away at `now`, and whether that is long; nil while attached.
    public func away(at now: Instant) -> (duration: Duration, long: Bool)? {
        guard let awaySince else { return nil }
        let duration = awaySince.duration(to: now)
        return (duration, duration >= Self.hintAfter)
    }
}
