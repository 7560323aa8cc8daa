/// How long a test waits for a condition before it fails. A wait polls and returns the moment the
/// condition holds, so a generous deadline costs nothing in a green run; what it buys is room for a
/// 2-core machine running two shards of the suite beside other work (`stress-ng --cpu 2` in
/// docs/PROOF.md), where a screen, a peer or a process that is merely slow must not read as broken.
/// A wait that is itself the product's promise ("within 3 s") keeps its own bound; this is for the
/// rest. On failure a wait says what it saw (the screen, the events, the output).
///
/// `eventually` is the one polling loop of the integration tests: the harness's waits (tmux screens,
/// processes, peers, recorders) and the tests' own are written on it, not as loops of their own around
/// a sleep. Unit tests on fakes do not poll: they wait on the manual clock (`ManualClock`).
package enum TestPatience {
    /// The default deadline of the harness's waits (tmux screens, processes' output and exit, events).
    package static let condition: Duration = .seconds(30)

    /// `condition` in seconds, for the waits that take a `Double`.
    package static let seconds: Double = 30

    /// True as soon as `holds` is, looking every `interval`; false once `timeout` has passed and it still
    /// does not (looked at once more at the deadline). For a test that then says what it saw.
    @discardableResult
    package static func eventually(within timeout: Duration = condition, every interval: Duration = .milliseconds(20),
                                   _ holds: () async throws -> Bool) async rethrows -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if try await holds() { return true }
            // Cancelled: one last look instead of spinning until the deadline.
            do { try await Task.sleep(for: min(interval, max(.zero, deadline - clock.now))) } catch { break }
        }
        return try await holds()
    }

    /// What `work` returns, or a timeout failure naming `what` once `limit` has passed; the work is cancelled
    /// either way. For a wait on a stream of values rather than on a condition (frames, a stream's end).
    package static func within<T: Sendable>(_ limit: Duration, _ what: String,
                                            _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask(operation: work)
            group.addTask {
                try await Task.sleep(for: limit)
                throw HarnessError.timeout(what, after: limit)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw HarnessError.timeout(what, after: limit) }
            return first
        }
    }

    /// Polls `holds` every 50 ms until it holds; fails naming `what` once `timeout` has passed.
    package static func poll(_ what: String, timeout: Duration = condition,
                             _ holds: () async -> Bool) async throws {
        guard await eventually(within: timeout, every: .milliseconds(50), holds) else {
            throw HarnessError("timed out after \(timeout) waiting until \(what)")
        }
    }
}
