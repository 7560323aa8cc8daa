import Foundation
import IntercomBase
import IntercomPhone

/// Attended (consultative) transfer: the desk puts the caller on hold, calls the target, and once
/// the target answered either hands the caller over (REFER with Replaces: liblinphone's
/// `transfer_to_another`) or hangs up the consultation and takes the caller off hold. The
/// consultation is a call of its own that no `call_*` event announces: front ends follow it through
/// `transfer_consult`, so a desk never sees it as a second caller. Its state is the held call's
/// `CallTransfer`; this flow drives the phone. It runs on the engine (`isolated Intercom`): the
/// registry is read again after every await, as the actor is reentered while the phone works.
struct AttendedTransferFlow {
    let phone: any PhoneService

    func step(_ id: CallID?, _ step: AttendedTransferStep, on engine: isolated Intercom) async throws -> JSONValue {
        switch step {
        case .consult(let target):
            return try await consult(try engine.calls.pick(id, stage: .active, what: "answered"), target: target, on: engine)
        case .complete: return try await complete(try engine.calls.consulting(id), on: engine)
        case .cancel: return try await cancel(try engine.calls.consulting(id), on: engine)
        }
    }

    private func consult(_ session: CallSession, target: String, on engine: isolated Intercom) async throws -> JSONValue {
        let id = session.info.id
        guard session.stage == .active, session.transfer.consultationOf == nil else { throw IntercomError.noCall("answered") }
        guard session.transfer.isIdle else {
            throw IntercomError.notNow("call \(id) is already being transferred; complete or cancel that first "
                                       + "('intercom ctl transfer --complete' or '--cancel')")
        }
        let resolved = try CallTransfer.target(target, config: engine.config)
        try CallTransfer.checkHandOverReaches(resolved)
        try await phone.hold(id, true)
        guard engine.calls[id] != nil else { throw IntercomError.noCall("answered") }
        engine.calls[id]?.transfer.startConsulting(resolved)
        let who = resolved.name ?? resolved.uri
        let other: CallID
        do {
            // Audio only: the desk keeps the panel's picture while it talks to the flat.
            other = try await phone.call(resolved.uri, video: false)
        } catch {
            await failed(id, error: "the call to \(who) could not be placed: \(error)", on: engine)
            throw error
        }
        if let ended = engine.calls.endedBeforePlaced(other) {
            let why = CallTransfer.consultEnd(ended.endReason ?? .error, detail: nil, who: who)
            await failed(id, error: why, on: engine)
            throw IntercomError.callFailed("the call to \(who) ended at once: \(why); call \(id) is off hold again")
        }
        // The phone's `outgoing` event may not have been handled yet: the session is made here then.
        var consultation = engine.calls[other] ?? engine.placed(other, to: resolved.uri, video: false)
        consultation.consults(for: id)
        engine.calls[other] = consultation
        // Cancelled, or the caller hung up, while the call was being placed.
        guard engine.calls[id]?.transfer.consult != nil else {
            try? await phone.hangup(other)
            throw IntercomError.noCall("answered")
        }
        engine.calls[id]?.transfer.placed(other)
        engine.logger.info("call \(id): on hold, consulting \(who) in call \(other)")
        publish(id, .calling, on: engine)
        if engine.calls[other]?.stage == .active { answered(other, on: engine) }
        return .object([("call", .string(id.rawValue)), ("consult_call", .string(other.rawValue)),
                        ("to", .string(resolved.uri)), ("target", .optional(resolved.name))])
    }

    private func complete(_ session: CallSession, on engine: isolated Intercom) async throws -> JSONValue {
        let id = session.info.id
        let (consult, other) = try session.transfer.completable()
        engine.calls[id]?.transfer.completing(true)
        do {
            try await phone.transfer(id, toCallOf: other)
        } catch {
            engine.calls[id]?.transfer.completing(false)
            throw error
        }
        engine.logger.info("call \(id): handed to \(consult.who) (REFER with Replaces of call \(other))")
        publish(id, .transferring, on: engine)
        return .object([("call", .string(id.rawValue)), ("consult_call", .string(other.rawValue)),
                        ("to", .string(consult.uri)), ("target", .optional(consult.name))])
    }

    private func cancel(_ session: CallSession, on engine: isolated Intercom) async throws -> JSONValue {
        let id = session.info.id
        guard let consult = session.transfer.consult else { throw IntercomError.notNow("no consultation under way") }
        guard !consult.completing else {
            throw IntercomError.notNow("the transfer to \(consult.who) is already on its way; wait for its outcome")
        }
        publish(id, .cancelled, on: engine)
        engine.calls[id]?.transfer.endConsultation()
        // The consultation's end is then swallowed (`follow`): it was never announced.
        if let other = consult.call { try? await phone.hangup(other) }
        try await phone.hold(id, false)
        engine.logger.info("call \(id): consultation with \(consult.who) cancelled, off hold again")
        return .object([("call", .string(id.rawValue)), ("consult_call", .optional(consult.call?.rawValue))])
    }

    /// The phone's events that move a consultation on; runs before the engine's own handling of
    /// the event (the caller's session is still there when it ends).
    func follow(_ event: PhoneEvent, on engine: isolated Intercom) async {
        switch event {
        case .established(let other, _):
            answered(other, on: engine)
        case .ended(let other, let reason, _, let detail) where engine.calls[other]?.transfer.consultationOf != nil:
            // Never announced, so it leaves no `call_ended` (and no journal row of its own); its
            // tasks end with it like any call's, and `stop` awaits them. Marked seen: `consult`
            // got its id long ago, nothing waits for it among the ended calls.
            guard let owner = engine.calls.end(other, reason, detail: nil, seen: true)?.transfer.consultationOf,
                  let consult = engine.calls[owner]?.transfer.consult, consult.call == other, !consult.completing else { return }
            await failed(owner, error: CallTransfer.consultEnd(reason, detail: detail, who: consult.who), on: engine)
        case .ended(let id, let reason, _, _):
            guard let session = engine.calls[id],
                  let left = engine.calls[id]?.transfer.callerLeft(reason, caller: session.name ?? "the caller") else { return }
            let consult = left.consult
            if let failure = left.failure { publish(session.ref, consult, .failed, error: failure, on: engine) }
            guard let other = consult.call, engine.calls[other] != nil else { return }
            if left.keepTalking {
                // Left talking to the target, as on any phone: it becomes an ordinary call of the desk.
                engine.calls[other]?.becomeOrdinary()
                if let ref = engine.calls[other]?.ref {
                    engine.publish(.callOutgoing(ref, to: consult.uri))
                    engine.publish(.callAnswered(ref, by: .remote))
                }
            } else {
                try? await phone.hangup(other)
            }
        default:
            break
        }
    }

    /// A consultation's call was answered: the desk may complete or cancel now.
    private func answered(_ other: CallID, on engine: isolated Intercom) {
        guard let owner = engine.calls[other]?.transfer.consultationOf,
              engine.calls[owner]?.transfer.answered(other) == true else { return }
        publish(owner, .answered, on: engine)
    }

    /// The consultation failed (`error` says why): it is hung up and the caller taken off hold.
    private func failed(_ id: CallID, error: String, on engine: isolated Intercom) async {
        guard engine.calls[id]?.transfer.consult != nil else { return }
        publish(id, .failed, error: error, on: engine)
        let consult = engine.calls[id]?.transfer.endConsultation()
        if let other = consult?.call { try? await phone.hangup(other) }
        do {
            try await phone.hold(id, false)
        } catch {
            engine.logger.warning("call \(id): could not be taken off hold after the failed consultation: \(error)")
        }
    }

    private func publish(_ id: CallID, _ state: IntercomEvent.ConsultState, error: String? = nil, on engine: isolated Intercom) {
        guard let session = engine.calls[id], let consult = session.transfer.consult else { return }
        publish(session.ref, consult, state, error: error, on: engine)
    }

    private func publish(_ call: IntercomEvent.CallRef, _ consult: CallTransfer.Consultation,
                         _ state: IntercomEvent.ConsultState, error: String? = nil, on engine: isolated Intercom) {
        if let error { engine.logger.warning("call \(call.id): attended transfer to \(consult.who) failed: \(error)") }
        engine.publish(.transferConsult(call, state: state, to: consult.uri, target: consult.name, consultCall: consult.call, error: error))
    }
}
