import Foundation
import IntercomBase

/// The journal's times read back: the hand-written `RFC3339.date` against Foundation's Sendable
/// `Date.ISO8601FormatStyle`, made once and reused, over the 1 000 000 times of the site bench's
/// journal (one every 31.5 s, as `RFC3339.string` writes them). Each parses every time; the fastest of 3 rounds.
enum RFC3339Bench {
    struct Figures {
        var count: Int
        var handWritten: Double
        var formatStyle: Double
        var agree: Bool
    }

    static func run(count: Int = 1_000_000) -> Figures {
        let now = Date()
        let texts = (1...count).map { RFC3339.string(now.addingTimeInterval(-Double($0) * 31.5)) }
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var hand: [Date?] = []
        var foundation: [Date?] = []
        let handSeconds = fastest { hand = texts.map(RFC3339.date) }
        let styleSeconds = fastest { foundation = texts.map { try? style.parse($0) } }
        let agree = zip(hand, foundation).allSatisfy { a, b in
            guard let a, let b else { return a == nil && b == nil }
            return abs(a.timeIntervalSince(b)) < 0.001
        }
        return Figures(count: count, handWritten: handSeconds, formatStyle: styleSeconds, agree: agree)
    }

    private static func fastest(_ body: () -> Void) -> Double {
        (0..<3).map { _ in
            let start = ContinuousClock.now
            body()
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }.min() ?? .nan
    }
}

/// `intercom-bench INTERCOM WORK CALLS --rfc3339-only` (bench-site.sh runs it).
func rfc3339Section() async throws {
    let figures = RFC3339Bench.run()
    line("Reading the journal's times back (\(figures.count) RFC 3339 times with milliseconds and the local offset, as the")
    line("journal writes them; the fastest of 3 rounds, in this process):")
    line()
    line("| parser | total | per time |")
    line("|---|---|---|")
    line("| `RFC3339.date` (hand-written) | \(f(figures.handWritten * 1000, 0)) ms | \(f(figures.handWritten / Double(figures.count) * 1e9, 0)) ns |")
    line("| `Date.ISO8601FormatStyle`, made once | \(f(figures.formatStyle * 1000, 0)) ms | \(f(figures.formatStyle / Double(figures.count) * 1e9, 0)) ns |")
    line()
    if !figures.agree { line("**The two parsers disagreed on some times.**"); line() }
}
