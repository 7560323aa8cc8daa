import Foundation

/// The message row's text: an open prompt, else a message, an outcome or a transfer under way.
/// A message never loses its end at the window's edge: what does not fit on one row wraps onto
/// rows above it (up to `maxRows`), which the layout takes from the picture or the tiles.
struct StatusLine: Equatable {
    enum Style: Equatable { case prompt, ok, warn, dim }
    var text: String
    var style: Style

    /// Rows a message may take; a longer one (none of ours is) ends in "…" on the last.
    static let maxRows = 3

    /// The rows for a window `cols` wide: the prompt is one bar (shortened as typed text is);
    /// a message is wrapped at spaces to the width the row gives it (`cols - 2`).
    func rows(cols: Int) -> [String] {
        guard style != .prompt else { return [TextFit.ellipsize(" " + text, cols)] }
        let width = max(1, cols - 2)
        var lines = TextFit.wrap(text, width, indent: 2)
        // Too long even wrapped: what to do (the last clause, `…; transfer blind instead …`) comes
        // first, and what is shortened is the reason before it.
        if lines.count > Self.maxRows, let advice = TextFit.adviceFirst(text) { lines = TextFit.wrap(advice, width, indent: 2) }
        guard lines.count > Self.maxRows else { return lines }
        let rest = lines.dropFirst(Self.maxRows - 1).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return Array(lines.prefix(Self.maxRows - 1)) + ["  " + TextFit.ellipsize(rest, max(1, cols - 4))]
    }
}

extension ScreenModel {
    /// What the message row says now (nil: nothing).
    /// `away`: the attached screen's "daemon away" line, said for as long as the daemon is away (a message
    /// would fade while the screen hears nothing).
    func statusLine(now: Date, filterShown: Int? = nil, away: String? = nil) -> StatusLine? {
        if let prompt = promptLine(filterShown: filterShown) { return StatusLine(text: prompt, style: .prompt) }
        if let message, message.until > now { return StatusLine(text: message.text, style: message.warn ? .warn : .ok) }
        if let away { return StatusLine(text: away, style: .warn) }
        if let outcome, outcome.until > now { return StatusLine(text: outcome.text, style: .dim) }
        if let pending = pendingTransfer {
            return StatusLine(text: "transferring to \(pending.target)… (\(Int(now.timeIntervalSince(pending.since))) s)", style: .ok)
        }
        return nil
    }

    /// The rows the message takes in a window `cols` wide (at least one: the row is always kept).
    func messageRows(cols: Int, now: Date) -> Int {
        max(1, statusLine(now: now)?.rows(cols: cols).count ?? 1)
    }

    /// The journal is on the screen (`l`, and no call shown): the kiosk's tiles give way to it.
    var journalShown: Bool { journal != nil && selectedCall == nil }
}
