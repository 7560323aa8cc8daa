import Foundation
import IntercomBase

/// How long the control socket's accept loop waits after a failed accept (EMFILE, ENFILE, ENOMEM),
/// and whether to log it. The pause doubles from 50 ms to 1 s and resets on the next success; the
/// log line comes at most once per 10 s, so a daemon stuck at its descriptor limit does not fill
/// the journal.
struct AcceptBackOff: Sendable {
    static let firstPause = 0.05
    static let longestPause = 1.0
    static let logInterval = Duration.seconds(10)

    private var pause = 0.0
    private var reports = LogThrottle(every: logInterval)

    /// After a failure: the pause before the next accept, and whether to log this failure.
    mutating func failed(at now: ContinuousClock.Instant) -> (pause: Double, report: Bool) {
        pause = pause == 0 ? Self.firstPause : min(pause * 2, Self.longestPause)
        return (pause, reports.admit(now: now) != nil)
    }

    mutating func succeeded() { pause = 0 }
}
