import Foundation
import IntercomBase

/// Missed calls are a queue (issue 25): `ctl handled ENTRY` takes one out of it, `ctl callback
/// ENTRY` calls its panel back and takes it out, both keeping who in the journal. The journal is
/// the daemon's (`useJournal`); without one (a screen's own engine) these commands say so.
extension Intercom {
    /// The journal the missed-call commands read and mark.
    public nonisolated func useJournal(_ journal: Journal) { journalSlot.withLock { $0 = journal } }

    func markHandled(_ entry: Int64, by who: String) throws -> JSONValue {
        try missedCallJournal().markHandled(entry, by: who, at: clock.date).json
    }

    /// Dials the missed call's panel, then marks the entry handled: a call that could not be
    /// placed leaves it in the queue.
    func callBack(_ entry: Int64, by who: String, phone: any PhoneService) async throws -> JSONValue {
        let journal = try missedCallJournal()
        guard let missed = try journal.entry(entry), missed.missed else {
            throw IntercomError.refused("entry \(entry) is not a missed call; 'intercom log --unhandled --json' lists them with their ids")
        }
        guard let panel = missed.panel else {
            throw IntercomError.unknownPanel("missed call \(entry) is from \(missed.caller ?? "an unknown caller"), not a panel: nothing to call back")
        }
        let placed = try await dial(panel: panel, phone: phone)
        let handled = try journal.markHandled(entry, by: "\(who), called back", at: clock.date)
        return .object([("call", placed["call"] ?? .null), ("panel", .string(panel)), ("entry", handled.json)])
    }

    private func missedCallJournal() throws -> Journal {
        guard let journal = journalSlot.withLock({ $0 }) else {
            throw IntercomError.refused("no journal here: missed calls are kept by 'intercom daemon'; use 'intercom log --handled ENTRY'")
        }
        return journal
    }
}

extension Intercom {
    /// `journal`: the daemon's journal read for a front end that has none open (`ctl journal`).
    func journalEntries(_ query: JournalQuery) throws -> JSONValue {
        guard let journal = journalSlot.withLock({ $0 }) else {
            throw IntercomError.refused("no journal here: the journal is kept by 'intercom daemon'; read it with 'intercom log'")
        }
        return .array(try journal.entries(query).map(\.json))
    }
}
