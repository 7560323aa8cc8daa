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
}
