import Foundation
import IntercomBase
import IntercomPhone

/// The calls the engine places to a panel: `intercom call` (a look and a talk without anyone
/// ringing) and a missed call's call back. It drives the phone on the engine (`isolated
/// Intercom`): the registry is read again after every await.
struct OutgoingCallFlow {
    let phone: any PhoneService

    /// Calls a panel (`intercom call`). The peephole runs until the panel's own video arrives, as
    /// for a ringing call.
    func dial(panel name: String?, on engine: isolated Intercom) async throws -> JSONValue {
        let panel = try engine.resolvePanel(name)
        guard let uri = panel.dialURI else {
            throw IntercomError.unknownPanel("panel \(panel.name) has no SIP address to call: set dial = sip:… in [panel \(panel.name)]")
        }
        let id = try await phone.call(uri, video: true)
        // The engine stopped while the phone placed it: the phone's stop ended it.
        guard !engine.tasks.isEnded else { throw IntercomError.notStarted }
        // The phone's `outgoing` event may have been handled while we waited, or not yet.
        if let ended = engine.calls.endedBeforePlaced(id) {
            throw IntercomError.callFailed("the call to \(panel.name) (\(uri)) ended at once: \(ended.endReason?.rawValue ?? "error")")
        }
        var session = engine.calls[id] ?? engine.placed(id, to: uri, video: true)
        session.announce(panel: panel)
        engine.calls[id] = session
        engine.publish(.callOutgoing(session.ref, to: uri))
        engine.startPeephole(id, panel: panel, phone: phone)
        return .object([("call", .string(id.rawValue)), ("panel", .string(panel.name)), ("to", .string(uri))])
    }

    /// Dials the missed call's panel and waits for someone to take the call: only an answered
    /// call back takes the entry out of the queue. One refused (busy, declined), rung out, or not
    /// answered within `IntercomCommand.callBackRingSeconds` (hung up then) leaves it there, notes
    /// why in the journal and throws `callFailed` with that reason (exit 69).
    func callBack(_ entry: Int64, by who: String, on engine: isolated Intercom) async throws -> JSONValue {
        let (journal, panel) = try engine.missedCalls.callBackTarget(entry)
        let logger = engine.logger
        let failed = { (why: String) in
            MissedCalls.callBackFailed(entry, panel: panel, why: why, by: who, journal: journal, logger: logger)
        }
        let placed: JSONValue
        do {
            placed = try await dial(panel: panel, on: engine)
        } catch {
            // Not placed (no dial URI, the phone refused it, it ended at once): nobody reached either.
            throw failed("\(error)")
        }
        guard let call = placed["call"]?.stringValue.map(CallID.init) else { return placed }
        let seconds = IntercomCommand.callBackRingSeconds
        switch try await CallWait.wait(for: call, upTo: seconds, until: { $0.stage == .active }, on: engine) {
        case .reached:
            let handled = try journal.markHandled(entry, by: "\(who), called back", at: engine.clock.date)
            return .object([("call", .string(call.rawValue)), ("panel", .string(panel)), ("entry", handled.json)])
        case .ended:
            let ended = engine.calls.lastEnded(call)
            throw failed(MissedCalls.unanswered(ended?.endReason, detail: ended?.endDetail))
        case .timedOut:
            // Ours to end: a call back nobody took must not ring on after the command said it failed.
            try? await phone.hangup(call)
            throw failed("no answer within \(Int(seconds)) s")
        }
    }
}
