import Foundation
import IntercomBase

/// The missed-call queue's commands (`MissedCalls`): `handled` marks an entry, `callBack` calls
/// its panel back and marks it once someone answers.
extension Intercom {
    /// The journal the missed-call commands read and mark.
    public nonisolated func useJournal(_ journal: Journal) { missedCalls.use(journal) }

    func markHandled(_ entry: Int64, by who: String) throws -> JSONValue {
        try missedCalls.markHandled(entry, by: who, at: clock.date)
    }

    /// Dials the missed call's panel and waits for someone to take the call: only an answered
    /// call back takes the entry out of the queue. One refused (busy, declined), rung out, or not
    /// answered within `IntercomCommand.callBackRingSeconds` (hung up then) leaves it there, notes
    /// why in the journal and throws `callFailed` with that reason (exit 69).
    func callBack(_ entry: Int64, by who: String, phone: any PhoneService) async throws -> JSONValue {
        let (journal, panel) = try missedCalls.callBackTarget(entry)
        let failed = { (why: String) in
            MissedCalls.callBackFailed(entry, panel: panel, why: why, by: who, journal: journal, logger: self.logger)
        }
        let placed: JSONValue
        do {
            placed = try await dial(panel: panel, phone: phone)
        } catch {
            // Not placed (no dial URI, the phone refused it, it ended at once): nobody reached either.
            throw failed("\(error)")
        }
        guard let call = placed["call"]?.stringValue.map(CallID.init) else { return placed }
        let seconds = IntercomCommand.callBackRingSeconds
        switch try await wait(for: call, upTo: seconds, until: { $0.stage == .active }) {
        case .reached:
            let handled = try journal.markHandled(entry, by: "\(who), called back", at: clock.date)
            return .object([("call", .string(call.rawValue)), ("panel", .string(panel)), ("entry", handled.json)])
        case .ended:
            let ended = calls.lastEnded(call)
            throw failed(MissedCalls.unanswered(ended?.endReason, detail: ended?.endDetail))
        case .timedOut:
            // Ours to end: a call back nobody took must not ring on after the command said it failed.
            try? await phone.hangup(call)
            throw failed("no answer within \(Int(seconds)) s")
        }
    }

    /// `journal`: the daemon's journal read for a front end that has none open (`ctl journal`).
    func journalEntries(_ query: JournalQuery) throws -> JSONValue { try missedCalls.entries(query) }
}
