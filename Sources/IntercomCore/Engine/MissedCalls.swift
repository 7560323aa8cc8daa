import Foundation
import IntercomBase
import IntercomPhone
import Synchronization

/// Missed calls are a queue (issue 25): `ctl handled ENTRY` takes one out of it, `ctl callback
/// ENTRY` calls its panel back and takes it out once someone answers (issue 38), both keeping
/// who in the journal. The journal is the daemon's (`Intercom.useJournal`), set without awaiting
/// by the event pipeline as it opens it; without one (a screen's own engine) these commands say so.
/// The engine places the call back and waits for it (`Intercom.callBack`); this keeps the journal's side.
final class MissedCalls: Sendable {
    private let journalSlot = Mutex<(any JournalStore)?>(nil)

    func use(_ journal: any JournalStore) { journalSlot.withLock { $0 = journal } }

    /// The journal the missed-call commands read and mark.
    func journal() throws(IntercomError) -> any JournalStore {
        guard let journal = journalSlot.withLock({ $0 }) else {
            throw .refused("no journal here: missed calls are kept by 'intercom daemon'; use 'intercom log --handled ENTRY'")
        }
        return journal
    }

    /// `journal`: the daemon's journal read for a front end that has none open (`ctl journal`).
    func entries(_ query: JournalQuery) throws -> JSONValue {
        guard let journal = journalSlot.withLock({ $0 }) else {
            throw IntercomError.refused("no journal here: the journal is kept by 'intercom daemon'; read it with 'intercom log'")
        }
        return .array(try journal.entries(query).map(\.json))
    }

    func markHandled(_ entry: Int64, by who: String, at date: Date) throws -> JSONValue {
        try journal().markHandled(entry, by: who, at: date).json
    }

    /// The missed call `entry`, and the panel to call back.
    func callBackTarget(_ entry: Int64) throws -> (journal: any JournalStore, panel: String) {
        let journal = try journal()
        guard let missed = try journal.entry(entry), missed.missed else {
            throw IntercomError.refused("entry \(entry) is not a missed call; 'intercom log --unhandled --json' lists them with their ids")
        }
        guard let panel = missed.panel else {
            throw IntercomError.unknownPanel("missed call \(entry) is from \(missed.caller ?? "an unknown caller"), not a panel: nothing to call back")
        }
        return (journal, panel)
    }

    /// Notes a call back that reached nobody on its entry; the error `ctl callback` exits with.
    static func callBackFailed(_ entry: Int64, panel: String, why: String, by who: String, journal: any JournalStore,
                               logger: Logger) -> IntercomError {
        do {
            try journal.noteCallBackFailed(entry, why: why, by: who)
        } catch {
            logger.warning("the failed call back of entry \(entry) was not noted in the journal: \(error)")
        }
        return .callFailed("the call back of entry \(entry) to \(panel) reached nobody: \(why); it stays in 'intercom log --unhandled'")
    }

    /// Why a call we placed ended before anyone took it, in the words `ctl callback` and the log show.
    static func unanswered(_ reason: CallEndReason?, detail: String?) -> String {
        let said = detail.map { " (\($0))" } ?? ""
        return switch reason {
        case .declined?, .busy?: "refused\(said)"
        case .missed?: "no answer\(said)"
        case .hangup?: "hung up here before anyone answered"
        default: "the call failed\(said)"
        }
    }
}
