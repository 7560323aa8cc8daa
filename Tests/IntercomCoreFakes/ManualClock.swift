import Foundation
import IntercomCore
import Synchronization

/// The engine's clock in tests: time stands still until the test advances it, and then every
/// wait whose deadline has come returns, in deadline order. A Swift `Clock` (as `EngineClock`
/// asks), so the engine's `sleep(for:)` is the same call on it as on the system clock.
///
/// A test advances time only once the engine waits: `waitForSleepers` returns when as many
/// waits are pending (woken by each new wait, not polled), so a step is never lost to a task
/// that had not started its wait yet.
package final class ManualClock: EngineClock, Sendable {
    package struct Instant: InstantProtocol, CustomStringConvertible {
        /// Time since the clock was made.
        package var offset: Swift.Duration

        package func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Swift.Duration { other.offset - offset }
        package static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
        package var description: String { "\(offset)" }
    }

    private struct Sleeper {
        var deadline: Instant
        var resume: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UUID: Sleeper] = [:]
    }

    private let state = Mutex(State())
    /// Wakes `waitForSleepers` and `waitForSleeper` at each new wait and each advance.
    private let signal = ChangeSignal()
    /// The wall-clock date at the clock's zero.
    package let start: Date

    /// Where a manual clock starts unless told: a fixed date, so a test's dates are the same on every run.
    package static let epoch = Date(timeIntervalSince1970: 1_767_225_600)

    package init(start: Date = ManualClock.epoch) {
        self.start = start
    }

    package var now: Instant { state.withLock { $0.now } }
    package var minimumResolution: Swift.Duration { .zero }
    package var date: Date { start.addingTimeInterval(Self.seconds(now.offset)) }

    /// The pending waits' deadlines, from now, soonest first.
    package var pending: [Swift.Duration] {
        state.withLock { s in s.sleepers.values.map { s.now.duration(to: $0.deadline) }.sorted() }
    }

    package func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (resume: CheckedContinuation<Void, any Error>) in
                enum Start { case now, cancelled, waiting }
                // Checked under the lock the cancel handler takes: a cancel either finds the
                // sleeper or is seen here.
                let start = state.withLock { s -> Start in
                    if Task.isCancelled { return .cancelled }
                    if deadline <= s.now { return .now }
                    s.sleepers[id] = Sleeper(deadline: deadline, resume: resume)
                    return .waiting
                }
                switch start {
                case .now: resume.resume()
                case .cancelled: resume.resume(throwing: CancellationError())
                case .waiting: signal.changed()
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.resume.resume(throwing: CancellationError())
        }
    }

    /// Moves time on by `duration` and wakes every wait due by then.
    package func advance(by duration: Swift.Duration) {
        advance(to: now.advanced(by: duration))
    }

    package func advance(to instant: Instant) {
        let due = state.withLock { s -> [Sleeper] in
            if instant > s.now { s.now = instant }
            let due = s.sleepers.filter { $0.value.deadline <= s.now }
            for id in due.keys { s.sleepers.removeValue(forKey: id) }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.resume.resume() }
        signal.changed()
    }

    /// Returns once at least `count` waits are pending (a real-time `timeout` guards a test
    /// whose engine never waits: it fails saying so).
    package func waitForSleepers(_ count: Int = 1, timeout: Swift.Duration = .seconds(10)) async throws {
        try await waitUntil("\(count) pending waits", timeout: timeout) { $0.count >= count }
    }

    /// Returns once a wait ends exactly `duration` from now (the auto-answer delay, the
    /// confirmation wait), whatever else is waiting.
    package func waitForSleeper(endingIn duration: Swift.Duration, timeout: Swift.Duration = .seconds(10)) async throws {
        try await waitUntil("a wait of \(duration)", timeout: timeout) { $0.contains(duration) }
    }

    private func waitUntil(_ what: String, timeout: Swift.Duration,
                           _ condition: ([Swift.Duration]) -> Bool) async throws {
        guard await signal.wait(timeout: timeout, until: { condition(pending) }) else {
            throw FakeTimeout(what: what, seen: ["pending waits: \(pending)"])
        }
    }

    private static func seconds(_ duration: Swift.Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
