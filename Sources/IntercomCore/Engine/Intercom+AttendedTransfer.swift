import Foundation
import IntercomBase
import IntercomPhone
import IntercomModel

/// Attended (consultative) transfer: the desk puts the caller on hold, calls the target, and once
/// the target answered either hands the caller over (REFER with Replaces: liblinphone's
/// `transfer_to_another`) or hangs up the consultation and takes the caller off hold. The
/// consultation is a call of its own that no `call_*` event announces: front ends follow it through
/// `transfer_consult`, so a desk never sees it as a second caller.
extension CallSession {
    struct Consultation: Sendable {
        var uri: String
        var name: String?
        /// The consultation's call, once the phone placed it.
        var call: CallID?
        var answered = false
        /// The REFER went out: the target hanging up the consultation is the transfer going through.
        var completing = false

        var who: String { name ?? uri }
    }
}

extension Intercom {
    func attendedTransfer(_ id: CallID?, step: AttendedTransferStep, phone: any PhoneService) async throws -> JSONValue {
        switch step {
        case .consult(let target):
            return try await consult(try pick(id, stage: .active, what: "answered"), target: target, phone: phone)
        case .complete:
            return try await completeConsultation(try consulting(id), phone: phone)
        case .cancel:
            return try await cancelConsultation(try consulting(id), phone: phone)
        }
    }

    /// The call whose consultation is under way: the named one, else the one that waits longest.
    private func consulting(_ id: CallID?) throws -> CallSession {
        let hint = "start one with 'intercom ctl transfer --consult TARGET' (T in a call)"
        if let id {
            guard let session = calls[id] else { throw IntercomError.phone(.noSuchCall(id)) }
            guard session.consult != nil else { throw IntercomError.notNow("call \(id) has no consultation under way; \(hint)") }
            return session
        }
        guard let session = calls.values.filter({ $0.consult != nil }).min(by: { $0.since < $1.since }) else {
            throw IntercomError.notNow("no consultation under way; \(hint)")
        }
        return session
    }

    private func consult(_ session: CallSession, target: String, phone: any PhoneService) async throws -> JSONValue {
        let id = session.info.id
        guard session.stage == .active, session.consultationOf == nil else { throw IntercomError.noCall("answered") }
        guard session.consult == nil, session.transfer == nil else {
            throw IntercomError.notNow("call \(id) is already being transferred; complete or cancel that first "
                                       + "('intercom ctl transfer --complete' or '--cancel')")
        }
        let resolved = try Self.transferURI(target, config: config)
        try Self.checkHandOverReaches(resolved)
        try await phone.hold(id, true)
        guard calls[id] != nil else { throw IntercomError.noCall("answered") }
        let consult = CallSession.Consultation(uri: resolved.uri, name: resolved.name)
        calls[id]?.consult = consult
        let other: CallID
        do {
            // Audio only: the desk keeps the panel's picture while it talks to the flat.
            other = try await phone.call(resolved.uri, video: false)
        } catch {
            await consultFailed(id, error: "the call to \(consult.who) could not be placed: \(error)", phone: phone)
            throw error
        }
        if let index = endedCalls.firstIndex(where: { $0.info.id == other }) {
            let reason = endedCalls[index].endReason ?? .error
            endedCalls[index].announced = true
            let why = Self.consultEnd(reason, detail: nil, who: consult.who)
            await consultFailed(id, error: why, phone: phone)
            throw IntercomError.callFailed("the call to \(consult.who) ended at once: \(why); call \(id) is off hold again")
        }
        // The phone's `outgoing` event may not have been handled yet: the session is made here then.
        var consultation = calls[other] ?? newSession(
            CallInfo(id: other, direction: .outgoing, from: "", to: resolved.uri, remoteHost: nil, offersVideo: false),
            panel: nil, stage: .dialing)
        consultation.announced = false
        consultation.consultationOf = id
        calls[other] = consultation
        // Cancelled, or the caller hung up, while the call was being placed.
        guard calls[id]?.consult != nil else {
            try? await phone.hangup(other)
            throw IntercomError.noCall("answered")
        }
        calls[id]?.consult?.call = other
        logger.info("call \(id): on hold, consulting \(consult.who) in call \(other)")
        publishConsult(id, .calling)
        if calls[other]?.stage == .active { consultAnswered(other) }
        return .object([("call", .string(id.rawValue)), ("consult_call", .string(other.rawValue)),
                        ("to", .string(resolved.uri)), ("target", .optional(resolved.name))])
    }

    private func completeConsultation(_ session: CallSession, phone: any PhoneService) async throws -> JSONValue {
        let id = session.info.id
        guard let consult = session.consult, let other = consult.call, consult.answered else {
            throw IntercomError.notNow("\(session.consult?.who ?? "the target") has not answered yet: wait for it, "
                                       + "or go back to the call (Esc, 'intercom ctl transfer --cancel')")
        }
        guard !consult.completing else { throw IntercomError.notNow("the transfer to \(consult.who) is already on its way") }
        calls[id]?.consult?.completing = true
        calls[id]?.transfer = (consult.uri, consult.name)
        do {
            try await phone.transfer(id, toCallOf: other)
        } catch {
            calls[id]?.consult?.completing = false
            calls[id]?.transfer = nil
            throw error
        }
        logger.info("call \(id): handed to \(consult.who) (REFER with Replaces of call \(other))")
        publishConsult(id, .transferring)
        return .object([("call", .string(id.rawValue)), ("consult_call", .string(other.rawValue)),
                        ("to", .string(consult.uri)), ("target", .optional(consult.name))])
    }

    private func cancelConsultation(_ session: CallSession, phone: any PhoneService) async throws -> JSONValue {
        let id = session.info.id
        guard let consult = session.consult else { throw IntercomError.notNow("no consultation under way") }
        guard !consult.completing else {
            throw IntercomError.notNow("the transfer to \(consult.who) is already on its way; wait for its outcome")
        }
        publishConsult(id, .cancelled)
        calls[id]?.consult = nil
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
        case .ended(let other, let reason, _, let detail) where calls[other]?.consultationOf != nil:
            guard var consultation = calls.removeValue(forKey: other), let owner = consultation.consultationOf else { return }
            // Never announced, so it leaves no `call_ended` (and no journal row of its own); its
            // tasks end with it like any call's, and `stop` awaits them. Marked seen: `consult`
            // got its id long ago, nothing waits for it among the ended calls.
            consultation.end(reason)
            consultation.announced = true
            endedCalls.removeAll { $0.tasks.running == 0 && $0.announced }
            endedCalls.append(consultation)
            guard let consult = calls[owner]?.consult, consult.call == other, !consult.completing else { return }
            await consultFailed(owner, error: Self.consultEnd(reason, detail: detail, who: consult.who), phone: phone)
        case .ended(let id, let reason, _, _):
            guard let consult = calls[id]?.consult else { return }
            let caller = calls[id]?.name ?? "the caller"
            if !(consult.completing && reason == .transferred) {
                let who = reason == .hangup ? "\(caller) was hung up here" : "\(caller) hung up"
                publishConsult(id, .failed, error: who + " during the " + (consult.completing ? "transfer" : "consultation"))
            }
            calls[id]?.consult = nil
            guard let other = consult.call, calls[other] != nil else { return }
            if consult.answered && !consult.completing {
                // Left talking to the target, as on any phone: it becomes an ordinary call of the desk.
                calls[other]?.consultationOf = nil
                calls[other]?.announced = true
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
        guard let owner = calls[other]?.consultationOf, let consult = calls[owner]?.consult, consult.call == other,
              !consult.answered else { return }
        calls[owner]?.consult?.answered = true
        publishConsult(owner, .answered)
    }

    /// The consultation failed (`error` says why): it is hung up and the caller taken off hold.
    private func consultFailed(_ id: CallID, error: String, phone: any PhoneService) async {
        guard let consult = calls[id]?.consult else { return }
        publishConsult(id, .failed, error: error)
        calls[id]?.consult = nil
        if let other = consult.call { try? await phone.hangup(other) }
        do {
            try await phone.hold(id, false)
        } catch {
            logger.warning("call \(id): could not be taken off hold after the failed consultation: \(error)")
        }
    }

    private func publishConsult(_ id: CallID, _ state: IntercomEvent.ConsultState, error: String? = nil) {
        guard let session = calls[id], let consult = session.consult else { return }
        if let error { logger.warning("call \(id): attended transfer to \(consult.who) failed: \(error)") }
        publish(.transferConsult(session.ref, state: state, to: consult.uri, target: consult.name,
                                 consultCall: consult.call, error: error))
    }

    /// liblinphone 5.1 writes the consultation's To without the target's port, and the hand-over's
    /// Refer-To is that To: the caller would call the target's host at the default port and the
    /// transfer would fail after the whole consultation. Refused before the caller is put on hold
    /// (DECISIONS.md, "Attended transfer end to end"); a blind transfer keeps the port.
    static func checkHandOverReaches(_ target: (uri: String, name: String?)) throws(IntercomError) {
        guard let uri = SIPURI(parsing: target.uri), let port = uri.port else { return }
        let standard: UInt16 = uri.scheme == .sips ? 5061 : 5060
        guard port != standard else { return }
        let who = target.name.map { "\($0) (\(target.uri))" } ?? target.uri
        throw .unsupportedTarget(
            "no attended transfer to \(who): liblinphone leaves port \(port) out of the hand-over, so the caller would call "
            + "\(uri.host):\(standard); transfer blind instead (t, 'intercom ctl transfer \(target.name ?? target.uri)') "
            + "or reach the target on port \(standard) (its SIP server)")
    }

    /// Why a consultation's call ended, in the words of a failed blind transfer's reasons.
    static func consultEnd(_ reason: CallEndReason, detail: String?, who: String) -> String {
        let kind = switch reason {
        case .declined where detail?.lowercased().contains("busy") == true: "busy"
        case .declined, .busy: "refused"
        case .missed: "timeout: nobody answered"
        case .remoteHangup: "\(who) hung up"
        default: "failed"
        }
        return detail.map { "\(kind) (\($0))" } ?? kind
    }
}
