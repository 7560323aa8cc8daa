import Foundation
import IntercomBase

/// Missed calls are a queue (issue 25): `ctl handled ENTRY` takes one out of it, `ctl callback
/// ENTRY` calls its panel back and takes it out once someone answers (issue 38), both keeping
/// who in the journal. The journal is
/// the daemon's (`useJournal`); without one (a screen's own engine) these commands say so.
extension Intercom {
    /// The journal the missed-call commands read and mark.
    public nonisolated func useJournal(_ journal: any JournalStore) { journalSlot.withLock { $0 = journal } }

    func markHandled(_ entry: Int64, by who: String) throws -> JSONValue {
        try missedCallJournal().markHandled(entry, by: who, at: clock.date).json
    }

    /// Dials the missed call's panel and waits for someone to take the call: only an answered
    /// call back takes the entry out of the queue. One refused (busy, declined), rung out, or not
    /// answered within `IntercomCommand.callBackRingSeconds` (hung up then) leaves it there, notes
    /// why in the journal and throws `callFailed` with that reason (exit 69).
    func callBack(_ entry: Int64, by who: String, phone: any PhoneService) async throws -> JSONValue {
        let journal = try missedCallJournal()
        guard let missed = try journal.entry(entry), missed.missed else {
            throw IntercomError.refused("entry \(entry) is not a missed call; 'intercom log --unhandled --json' lists them with their ids")
        }
        guard let panel = missed.panel else {
            throw IntercomError.unknownPanel("missed call \(entry) is from \(missed.caller ?? "an unknown caller"), not a panel: nothing to call back")
        }
        let placed: JSONValue
        do {
            placed = try await dial(panel: panel, phone: phone)
        } catch {
            // Not placed (no dial URI, the phone refused it, it ended at once): nobody reached either.
            throw callBackFailed(entry, panel: panel, why: "\(error)", by: who, journal: journal)
        }
        guard let call = placed["call"]?.stringValue.map(CallID.init) else { return placed }
        let seconds = IntercomCommand.callBackRingSeconds
        switch try await wait(for: call, upTo: seconds, until: { $0.stage == .active }) {
        case .reached:
            let handled = try journal.markHandled(entry, by: "\(who), called back", at: clock.date)
            return .object([("call", .string(call.rawValue)), ("panel", .string(panel)), ("entry", handled.json)])
        case .ended:
            let ended = endedCalls.last { $0.info.id == call }
            let why = Self.unanswered(ended?.endReason, detail: ended?.endDetail)
            throw callBackFailed(entry, panel: panel, why: why, by: who, journal: journal)
        case .timedOut:
            // Ours to end: a call back nobody took must not ring on after the command said it failed.
            try? await phone.hangup(call)
            throw callBackFailed(entry, panel: panel, why: "no answer within \(Int(seconds)) s", by: who, journal: journal)
        }
    }

    /// Notes a call back that reached nobody on its entry; the error `ctl callback` exits with.
    private func callBackFailed(_ entry: Int64, panel: String, why: String, by who: String, journal: any JournalStore) -> IntercomError {
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

    private func missedCallJournal() throws -> any JournalStore {
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
