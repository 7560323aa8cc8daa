import IntercomTerminal

/// Asks the terminal what it can do and reads the answers against a hard deadline.
///
/// All queries go out in one write, followed by DSR (`CSI 5 n`), which nearly every terminal
/// answers: its reply means nothing more is coming, so a capable terminal costs one round
/// trip. A terminal that answers nothing costs exactly the budget — never a hang
/// (notcurses blocks forever on an unanswered DA1; we must not).
public struct TerminalProbe: Sendable {
    /// The id our kitty query uses, so its reply can't be confused with anything else.
    static let kittyQueryID = 31

    /// kitty graphics query (1×1 RGB pixel, a=q: checked but not stored), window and cell
    /// size in pixels, DA1, then the DSR sentinel.
    public static func queries(askKitty: Bool) -> [UInt8] {
        let kitty = askKitty ? "\u{1B}_Gi=\(kittyQueryID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\" : ""
        return Array((kitty + "\u{1B}[14t" + "\u{1B}[16t" + "\u{1B}[c" + "\u{1B}[5n").utf8)
    }

    public var budget: Duration
    /// Off inside tmux and screen: they take the kitty query (an APC string) as the pane's
    /// title, which then shows the query in the status line.
    public var askKitty: Bool

    public init(budget: Duration = .milliseconds(150), askKitty: Bool = true) {
        self.budget = budget
        self.askKitty = askKitty
    }

    public var queries: [UInt8] { Self.queries(askKitty: askKitty) }

    /// Probes the controlling terminal (`/dev/tty`); `.none` when there is none.
    public func probeControllingTerminal() -> TerminalAnswers {
        guard let received = TerminalExchange.askControllingTerminal(queries, budget: budget,
                                                                     complete: { TerminalAnswers.parse($0).complete }) else { return .none }
        return TerminalAnswers.parse(received)
    }

    /// Probes the terminal on `fd` (a tty; anything else gets `.none` without a write).
    public func probe(fd: Int32) -> TerminalAnswers {
        guard let received = TerminalExchange.ask(fd: fd, queries, budget: budget,
                                                  complete: { TerminalAnswers.parse($0).complete }) else { return .none }
        return TerminalAnswers.parse(received)
    }
}
