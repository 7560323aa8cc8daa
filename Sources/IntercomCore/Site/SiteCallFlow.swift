import Foundation
import IntercomBase
import IntercomPhone

/// A forked call at a desk of a site (issue 40): its ring is noted at the site (or refused 480
/// off duty), its answer claims it, and its end names the desk that took it when another did.
/// The call is known by its INVITE's SIP Call-ID, the same at every desk the proxy forked it to.
/// A lone desk (no link), or a call without a Call-ID, goes through none of this. It runs on the
/// engine (`isolated Intercom`): the registry is read again after every await.
struct SiteCallFlow {
    /// The call rings here: noted at the site. False when this desk is off duty: the caller then
    /// declines the call with 480 (Temporarily Unavailable), which the site journals as such.
    func rings(_ session: CallSession, on engine: isolated Intercom) async -> Bool {
        guard let link = engine.site.link, let key = session.info.siteKey else { return true }
        // Its journal entry is then the forked call's one site entry, under the key's id at every desk.
        await link.keyCall(session.info.id, key)
        let decision = await link.ringing(key, panel: session.panel?.name, caller: session.info.from)
        guard decision == .refuseOffDuty else { return true }
        engine.logger.info("call \(session.info.id) from \(session.name ?? session.info.from) declined 480: this desk is off duty (ctl duty on)")
        return false
    }

    /// This desk answered the call: it claims it, so the other desks name it when their legs end.
    /// The claim is kept for the site and sent beside the call: the answer (`ctl answer`'s reply,
    /// guest mode's door) never waits for the store. A desk that claimed it first is said by the link.
    func answered(_ id: CallID, on engine: isolated Intercom) async {
        guard let link = engine.site.link, let session = engine.calls[id], let key = session.info.siteKey else { return }
        // Answered before its escalation was due: there is none. (An escalation answers from that task.)
        if session.escalatingTo == nil { session.tasks.cancel(CallSession.siteEscalation) }
        await link.answered(key)
    }

    /// The call's leg here ended (`reason` as `call_ended` says it): the site is told and `call_ended`
    /// published (`announce`). Answered elsewhere, it names the desk that took it, waited for up to
    /// `[site]`'s claim wait (the proxy's CANCEL may come before that desk's claim lands) in an engine
    /// task, so the phone's next events (a new ring) never wait for the store; unnamed when no claim
    /// came or the store is down.
    func ended(_ session: CallSession, reason: CallEndReason, on engine: isolated Intercom,
               announce: @escaping @Sendable (SiteDeskRef?) -> Void) async {
        guard let link = engine.site.link, let key = session.info.siteKey else { return announce(nil) }
        let tell: @Sendable () async -> Void = {
            await link.ended(key, reason: reason.rawValue)
            await link.forget(key)
        }
        let waiting = reason != .answeredElsewhere ? nil : engine.tasks.start {
            let claim = await link.claimant(key)
            await tell()
            announce(claim.map { SiteDeskRef(desk: $0.desk, operatorName: $0.operatorName) })
        }
        guard waiting == nil else { return }
        await tell()
        announce(nil)
    }

    // MARK: - Escalation

    /// `[site] escalate_after`/`escalate_to`: a task of the ringing call's, cancelled when it is
    /// answered here or ends. When it is due and no desk took the call, the desks claim its
    /// escalation and the one that wins answers it and transfers it (blind) to the target once
    /// it is established (`escalationEstablished`); the others' legs end answered elsewhere.
    func startEscalation(_ id: CallID, phone: any PhoneService, on engine: isolated Intercom) {
        guard let link = engine.site.link, let key = engine.calls[id]?.info.siteKey else { return }
        engine.calls[id]?.start(CallSession.siteEscalation) { [weak engine] in
            guard let target = await link.escalationDue(key), !Task.isCancelled, let engine else { return }
            await escalate(id, to: target, phone: phone, on: engine)
        }
    }

    private func escalate(_ id: CallID, to target: String, phone: any PhoneService, on engine: isolated Intercom) async {
        guard engine.calls[id]?.stage == .ringing else { return }
        engine.logger.notice("call \(id): no desk of the site answered in time; this desk escalates it to \(target) (answers, then transfers it blind)")
        engine.calls[id]?.escalatingTo = target
        do {
            try await engine.answer(id, by: .auto, phone: phone)
        } catch {
            engine.calls[id]?.escalatingTo = nil
            engine.logger.warning("call \(id): could not answer it to escalate it to \(target): \(error)")
        }
    }

    /// An escalated call is established here: it goes to its target (blind; `call_transferred` says how it went).
    func escalationEstablished(_ id: CallID, phone: any PhoneService, on engine: isolated Intercom) async {
        guard let session = engine.calls[id], let target = session.escalatingTo else { return }
        do {
            _ = try await engine.transfer(session, to: target, phone: phone)
        } catch {
            engine.logger.warning("call \(id): escalation to \(target) failed: \(error); the call stays here")
        }
    }
}

extension CallSession {
    /// The slot of a ringing call's escalation task (`SiteCallFlow.startEscalation`).
    static let siteEscalation = "site escalation"
}

extension CallInfo {
    /// How the desks of a site name this call: its INVITE's Call-ID (incoming calls only).
    var siteKey: SiteCallKey? {
        guard direction == .incoming, let sipCallID, !sipCallID.isEmpty else { return nil }
        return SiteCallKey(sipCallID)
    }
}
