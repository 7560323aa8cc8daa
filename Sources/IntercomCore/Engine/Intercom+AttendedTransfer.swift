import Foundation
import IntercomBase
import IntercomPhone
import IntercomModel

/// Attended (consultative) transfer: the desk puts the caller on hold, calls the target, and once
/// the target answered either hands the caller over (REFER with Replaces: liblinphone's
/// `transfer_to_another`) or hangs up the consultation and takes the caller off hold. The
/// consultation is a call of its own that no `call_*` event announces: front ends follow it through
/// `transfer_consult`, so a desk never sees it as a second caller. Its state is the held call's
/// `CallTransfer`; here the phone is driven.
extension Intercom {
    func attendedTransfer(_ id: CallID?, step: AttendedTransferStep, phone: any PhoneService) async throws -> JSONValue {
        switch step {
        case .consult(let target): return try await consult(try calls.pick(id, stage: .active, what: "answered"), target: target, phone: phone)
        case .complete: return try await completeConsultation(try calls.consulting(id), phone: phone)
        case .cancel: return try await cancelConsultation(try calls.consulting(id), phone: phone)
        }
    }

    private func consult(_ session: CallSession, target: String, phone: any PhoneService) async throws -> JSONValue {
        let id = session.info.id
        guard session.stage == .active, session.transfer.consultationOf == nil else { throw IntercomError.noCall("answered") }
        guard session.transfer.isIdle else {
            throw IntercomError.notNow("call \(id) is already being transferred; complete or cancel that first "
                                       + "('intercom ctl transfer --complete' or '--cancel')")
        }
        let resolved = try CallTransfer.target(target, config: config)
        try CallTransfer.checkHandOverReaches(resolved)
        try await phone.hold(id, true)
        guard calls[id] != nil else { throw IntercomError.noCall("answered") }
        calls[id]?.transfer.startConsulting(resolved)
        let who = resolved.name ?? resolved.uri
        let other: CallID
        do {
            // Audio only: the desk keeps the panel's picture while it talks to the flat.
            other = try await phone.call(resolved.uri, video: false)
        } catch {
            await consultFailed(id, error: "the call to \(who) could not be placed: \(error)", phone: phone)
            throw error
        }
        if let ended = calls.endedBeforePlaced(other) {
            let why = CallTransfer.consultEnd(ended.endReason ?? .error, detail: nil, who: who)
            await consultFailed(id, error: why, phone: phone)
            throw IntercomError.callFailed("the call to \(who) ended at once: \(why); call \(id) is off hold again")
        }
        // The phone's `outgoing` event may not have been handled yet: the session is made here then.
        var consultation = calls[other] ?? placed(other, to: resolved.uri, video: false)
        consultation.consults(for: id)
        calls[other] = consultation
        // Cancelled, or the caller hung up, while the call was being placed.
        guard calls[id]?.transfer.consult != nil else {
            try? await phone.hangup(other)
            throw IntercomError.noCall("answered")
        }
        calls[id]?.transfer.placed(other)
        logger.info("call \(id): on hold, consulting \(who) in call \(other)")
        publishConsult(id, .calling)
        if calls[other]?.stage == .active { consultAnswered(other) }
        return .object([("call", .string(id.rawValue)), ("consult_call", .string(other.rawValue)),
                        ("to", .string(resolved.uri)), ("target", .optional(resolved.name))])
    }

    private func completeConsultation(_ session: CallSession, phone: any PhoneService) async throws -> JSONValue {
        let id = session.info.id
        let (consult, other) = try session.transfer.completable()
        calls[id]?.transfer.completing(true)
        do {
            try await phone.transfer(id, toCallOf: other)
        } catch {
            calls[id]?.transfer.completing(false)
            throw error
        }
        logger.info("call \(id): handed to \(consult.who) (REFER with Replaces of call \(other))")
        publishConsult(id, .transferring)
        return .object([("call", .string(id.rawValue)), ("consult_call", .string(other.rawValue)),
                        ("to", .string(consult.uri)), ("target", .optional(consult.name))])
    }

    private func cancelConsultation(_ session: CallSession, phone: any PhoneService) async throws -> JSONValue {
        let id = session.info.id
        guard let consult = session.transfer.consult else { throw IntercomError.notNow("no consultation under way") }
        guard !consult.completing else {
            throw IntercomError.notNow("the transfer to \(consult.who) is already on its way; wait for its outcome")
        }
        publishConsult(id, .cancelled)
        calls[id]?.transfer.endConsultation()
        // The consultation's end is then swallowed (`followConsultation`): it was never announced.
        if let other = consult.call { try? await phone.hangup(other) }
        try await phone.hold(id, false)
        logger.info("call \(id): consultation with \(consult.who) cancelled, off hold again")
        return .object([("call", .string(id.rawValue)), ("consult_call", .optional(consult.call?.rawValue))])
    }

    /// The phone's events that move a consultation on; runs before the engine's own handling of
    /// the event (the caller's session is still there when it ends).
    func followConsultation(_ event: PhoneEvent, phone: any PhoneService) async {
        switch event {
        case .established(let other, _):
            consultAnswered(other)
        case .ended(let other, let reason, _, let detail) where calls[other]?.transfer.consultationOf != nil:
            // Never announced, so it leaves no `call_ended` (and no journal row of its own); its
            // tasks end with it like any call's, and `stop` awaits them. Marked seen: `consult`
            // got its id long ago, nothing waits for it among the ended calls.
            guard let owner = calls.end(other, reason, detail: nil, seen: true)?.transfer.consultationOf,
                  let consult = calls[owner]?.transfer.consult, consult.call == other, !consult.completing else { return }
            await consultFailed(owner, error: CallTransfer.consultEnd(reason, detail: detail, who: consult.who), phone: phone)
        case .ended(let id, let reason, _, _):
            guard let session = calls[id], let left = calls[id]?.transfer.callerLeft(reason, caller: session.name ?? "the caller") else {
                return
            }
            let consult = left.consult
            if let failure = left.failure { publishConsult(session.ref, consult, .failed, error: failure) }
            guard let other = consult.call, calls[other] != nil else { return }
            if left.keepTalking {
                // Left talking to the target, as on any phone: it becomes an ordinary call of the desk.
                calls[other]?.becomeOrdinary()
                if let ref = calls[other]?.ref {
                    publish(.callOutgoing(ref, to: consult.uri))
                    publish(.callAnswered(ref, by: .remote))
                }
            } else {
                try? await phone.hangup(other)
            }
        default:
            break
        }
    }

    /// A consultation's call was answered: the desk may complete or cancel now.
    private func consultAnswered(_ other: CallID) {
        guard let owner = calls[other]?.transfer.consultationOf, calls[owner]?.transfer.answered(other) == true else { return }
        publishConsult(owner, .answered)
    }

    /// The consultation failed (`error` says why): it is hung up and the caller taken off hold.
    private func consultFailed(_ id: CallID, error: String, phone: any PhoneService) async {
        guard calls[id]?.transfer.consult != nil else { return }
        publishConsult(id, .failed, error: error)
        let consult = calls[id]?.transfer.endConsultation()
        if let other = consult?.call { try? await phone.hangup(other) }
        do {
            try await phone.hold(id, false)
        } catch {
            logger.warning("call \(id): could not be taken off hold after the failed consultation: \(error)")
        }
    }

    private func publishConsult(_ id: CallID, _ state: IntercomEvent.ConsultState, error: String? = nil) {
        guard let session = calls[id], let consult = session.transfer.consult else { return }
        publishConsult(session.ref, consult, state, error: error)
    }

    private func publishConsult(_ call: IntercomEvent.CallRef, _ consult: CallTransfer.Consultation,
                                _ state: IntercomEvent.ConsultState, error: String? = nil) {
        if let error { logger.warning("call \(call.id): attended transfer to \(consult.who) failed: \(error)") }
        publish(.transferConsult(call, state: state, to: consult.uri, target: consult.name, consultCall: consult.call, error: error))
    }
}
