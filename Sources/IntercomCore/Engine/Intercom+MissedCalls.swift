import Foundation
import IntercomBase

/// The missed-call queue's commands (`MissedCalls`): `handled` marks an entry, `callBack` calls
/// its panel back and marks it once someone answers.
extension Intercom {
    /// The journal the missed-call commands read and mark.
    public nonisolated func useJournal(_ journal: any JournalStore) { missedCalls.use(journal) }

    func markHandled(_ entry: Int64, by who: String) throws -> JSONValue {
        try missedCalls.markHandled(entry, by: who, at: clock.date)
    }

    /// Calls a missed call's panel back (`OutgoingCallFlow.callBack`).
    func callBack(_ entry: Int64, by who: String, phone: any PhoneService) async throws -> JSONValue {
        try await OutgoingCallFlow(phone: phone).callBack(entry, by: who, on: self)
    }

    /// `journal`: the daemon's journal read for a front end that has none open (`ctl journal`).
    func journalEntries(_ query: JournalQuery) throws -> JSONValue { try missedCalls.entries(query) }
}
