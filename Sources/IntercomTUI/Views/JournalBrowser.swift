import Foundation
import IntercomBase

/// The terminal client's journal view (`l`): the newest entries, one selected, its picture beside.
/// Read from the journal file, so it shows what the daemon recorded as well as this screen.
struct JournalBrowser {
    var entries: [JournalEntry] = []
    var selected = 0
    /// Why there is nothing to show (no journal yet, unreadable).
    var problem: String?
    /// How many of the first entries are missed calls nobody returned yet (they come first).
    var unhandled = 0

    /// The newest `limit` entries, newest first, after every missed call still to be returned
    /// (newest first too): what the desk has to do is at the top, however old.
    static func load(directory: String, limit: Int = 200) -> JournalBrowser {
        do {
            let journal = try Journal(directory: directory, create: false)
            let missed = try journal.entries(JournalQuery(missedOnly: true, operatorEvents: false, unhandledOnly: true)).reversed()
            let ids = Set(missed.map(\.id))
            // An alarm's "off" half only repeats its "on": the list keeps what someone did or saw.
            let rest = try journal.entries(JournalQuery(limit: limit)).reversed()
                .filter { !($0.kind == .panelEvent && $0.method == "off") && !ids.contains($0.id) }
            let entries = Array(missed) + rest
            return JournalBrowser(entries: entries, problem: entries.isEmpty ? "the journal is empty" : nil, unhandled: missed.count)
        } catch .noJournal {
            return JournalBrowser(problem: "no journal yet: calls are recorded from now on")
        } catch {
            return JournalBrowser(problem: error.description)
        }
    }

    /// The journal's missed calls for the count on the screen (`MissedCalls.read`): every unhandled
    /// one and the recent ones; nil when there is no journal to read.
    static func missedCalls(directory: String, recent: Int = 100) -> (unhandled: [JournalEntry], recent: [JournalEntry])? {
        guard let journal = try? Journal(directory: directory, create: false),
              let unhandled = try? journal.entries(JournalQuery(missedOnly: true, operatorEvents: false, unhandledOnly: true)),
              let recent = try? journal.entries(JournalQuery(missedOnly: true, limit: recent, operatorEvents: false)) else { return nil }
        return (unhandled, recent)
    }

    var selectedEntry: JournalEntry? { entries.indices.contains(selected) ? entries[selected] : nil }

    mutating func move(_ delta: Int) {
        guard !entries.isEmpty else { return }
        selected = min(max(0, selected + delta), entries.count - 1)
    }

    /// The rows that fit in `height`, keeping the selected one in view; `true` marks it.
    func window(height: Int) -> [(entry: JournalEntry, selected: Bool)] {
        guard height > 0, !entries.isEmpty else { return [] }
        let start = min(max(0, selected - height / 2), max(0, entries.count - height))
        return entries[start..<min(entries.count, start + height)].enumerated().map { offset, entry in
            (entry, start + offset == selected)
        }
    }

    /// One line of the list: `dd.mm HH:MM panel outcome`; an operator's entry (the daemon's copy
    /// of its event log): `dd.mm HH:MM OPERATOR: DOOR event (who)`.
    static func line(_ entry: JournalEntry) -> String {
        let line = parts(entry)
        return line.text + line.mark
    }

    /// The list line as its text and its mark: a recorded call's ` [clip ID]` (Enter plays it), which a
    /// narrow list keeps whole by shortening the text before it (`InfoLine.fitted`); "" for the others.
    static func parts(_ entry: JournalEntry) -> (text: String, mark: String) {
        let local = LocalTime(entry.time)
        let when = String(format: "%02d.%02d %02d:%02d", local.day, local.month, local.hour, local.minute)
        switch entry.kind {
        case .call:
            // A recorded call: `intercom log --play ID` replays it.
            return ("\(when) \(entry.panel ?? "?") \(outcome(entry))", entry.playableClip == nil ? "" : " [clip \(entry.id)]")
        case .operatorEvent:
            // The operator's texts came from its server: no control character reaches the screen.
            return (TerminalSafe.escape("\(when) \(entry.placeText) \(entry.outcomeText)" + (entry.caller.map { " (\($0))" } ?? "")), "")
        case .transfer:
            // A refused transfer's reason is the other side's status line.
            return (TerminalSafe.escape("\(when) \(entry.panel ?? "?") \(entry.subjectText) \(entry.outcomeText)"), "")
        case .door, .panelEvent:
            return ("\(when) \(entry.panel ?? "?") \(entry.subjectText) \(entry.outcomeText)", "")
        }
    }

    /// A call's outcome; a missed call's says how long it rang (its talk time is 0:00), before what
    /// became of it (` — handled by …`, ` — call back failed: …`). One refused busy never rang here.
    private static func outcome(_ entry: JournalEntry) -> String {
        let text = entry.outcomeText
        guard entry.missed, entry.outcome != CallEndReason.busy.rawValue, let ended = entry.ended else { return text }
        let rang = ", rang \(ScreenModel.duration(ended.timeIntervalSince(entry.time)))"
        guard let after = text.range(of: " — ") else { return text + rang }
        return text[..<after.lowerBound] + rang + text[after.lowerBound...]
    }
}
