import Foundation

/// The engine's time: a Swift `Clock` for its waits (auto-answer delays, the confirmation wait,
/// the peephole's pace, retries), and the wall-clock `date` beside it (guest mode's end, a call's
/// start, the rate limit on automatic openings). `SystemClock` in production; the engine tests
/// pass a manual clock that moves only when the test advances it, so a timer fires exactly when
/// the test says and nothing sleeps.
public protocol EngineClock: Clock, Sendable where Duration == Swift.Duration {
    /// The wall-clock time now, as this clock keeps it.
    var date: Date { get }
}

extension EngineClock {
    /// A wait given in seconds (zero or less: returns at once unless cancelled).
    func sleep(seconds: TimeInterval) async throws {
        try await sleep(for: .seconds(max(0, seconds)))
    }
}

/// `Date()` for the date, the monotonic `ContinuousClock` for waits.
public struct SystemClock: EngineClock {
    public init() {}

    public var date: Date { Date() }
    public var now: ContinuousClock.Instant { ContinuousClock.now }
    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
    }
}
