/// How long a test waits for a condition before it fails. A wait polls and returns the moment the
/// condition holds, so a generous deadline costs nothing in a green run; what it buys is room for a
/// 2-core machine running two shards of the suite beside other work (`stress-ng --cpu 2` in
/// docs/PROOF.md), where a screen, a peer or a process that is merely slow must not read as broken.
/// A wait that is itself the product's promise ("within 3 s") keeps its own bound; this is for the
/// rest. On failure a wait says what it saw (the screen, the events, the output).
package enum TestPatience {
    /// The default deadline of the harness's waits (tmux screens, processes' output and exit, events).
    package static let condition: Duration = .seconds(30)

    /// `condition` in seconds, for the waits that take a `Double`.
    package static let seconds: Double = 30

    /// Polls `condition` every 50 ms until it holds; fails naming `what` once `timeout` has passed.
    package static func poll(_ what: String, timeout: Duration = condition,
                             _ holds: () async -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !(await holds()) {
            guard clock.now < deadline else { throw HarnessError("timed out after \(timeout) waiting until \(what)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
