import Foundation
import IntercomBase

/// The desk's queue of missed calls nobody has returned, counted on every screen: the journal's
/// unhandled missed calls as last read, and the ones this screen saw end since, which the daemon
/// writes to the journal a moment after the event (so a ring that ends shows at once). A call
/// the journal already knows (handled or not) is not counted twice.
struct MissedCalls: Equatable {
    /// Unhandled missed calls in the journal at its last reading, by call id.
    private(set) var unhandled: Set<String> = []
    /// The journal's recent missed calls, handled or not, at its last reading.
    private(set) var known: Set<String> = []
    /// Missed calls this screen saw end that the journal did not have yet.
    private(set) var seen: Set<String> = []

    var count: Int { unhandled.count + seen.subtracting(known).count }

    /// "1 missed call", "3 missed calls".
    var phrase: String { Self.phrase(count) }

    static func phrase(_ count: Int) -> String { "\(count) missed call\(count == 1 ? "" : "s")" }

    /// A call that rang here and ended with nobody answering.
    mutating func ended(_ call: CallID) { seen.insert(call.rawValue) }

    /// The journal as read now: its unhandled missed calls and its recent missed ones.
    mutating func read(unhandled: [JournalEntry], recent: [JournalEntry]) {
        self.unhandled = Set(unhandled.map(Self.key))
        known = Set(recent.map(Self.key)).union(self.unhandled)
        seen.subtract(known)
    }

    /// A call's id; an entry without one (older journals) by its row.
    private static func key(_ entry: JournalEntry) -> String { entry.call ?? "entry \(entry.id)" }
}

extension ScreenModel {
    /// The missed calls' key bar item: never dropped (rank 0), so every screen shows the count.
    var missedItem: KeyBar.Item? {
        guard missed.count > 0 else { return nil }
        return KeyBar.Item(journal == nil ? "\(missed.phrase): l" : missed.phrase, 0)
    }

    /// A panel's do-not-disturb as the idle screen and the kiosk's tile say it; nil with calls on.
    func policyWords(_ panel: String, now: Date) -> String? {
        guard let policy = policies[panel], !policy.calls else { return nil }
        return (policy.guestUntil.map { $0 > now } ?? false) ? "do not disturb (wins over guest mode)" : "do not disturb"
    }
}
