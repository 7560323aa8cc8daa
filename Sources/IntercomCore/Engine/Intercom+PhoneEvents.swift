import Foundation
import IntercomBase
import IntercomPhone

/// What the phone reports, applied to the calls: each call's state, and its end, which ends
/// every task it started.
extension Intercom {
    func handle(_ event: PhoneEvent) async {
        guard let phone else { return }
        await AttendedTransferFlow(phone: phone).follow(event, on: self)
        let incoming = IncomingCallFlow(phone: phone)
        switch event {
        case .listening:
            break
        case .registration(let account, let state, let reason):
            await RegistrationFlow(phone: phone).reported(account, state: state, reason: reason, on: self)
        case .incoming(let info):
            await incoming.ring(info, on: self)
        case .refusedBusy(let info, let detail):
            incoming.refusedBusy(info, detail: detail, on: self)
        case .outgoing(let info):
            // `dial` names the panel and announces the call once `phone.call` returns.
            if calls[info.id] == nil {
                calls.add(newSession(info, panel: config.panels.first { $0.dialURI == info.to }, stage: .dialing, announced: false))
            }
        case .ringing:
            break
        case .established(let id, let media):
            guard let session = calls.move(id, { $0.establish() }) else { return }
            if session.info.offersVideo && media.videoCodec == nil {
                logger.warning("call \(id) runs without video although the caller offered it (no common video codec)")
            }
            if let answered = session.answeredEvent { publish(answered.kind, who: answered.who) }
            if session.escalatingTo != nil { await SiteCallFlow().escalationEstablished(id, phone: phone, on: self) }
            if session.answeredBy == .guestMode, let panel = session.panel {
                // The door waits for `confirmed`: a blind or forged INVITE never gets there.
                session.start(CallSession.guestConfirmation) {
                    // Guest mode's hang-up: `call_ended` names it.
                    await Self.$acting.withValue(.guestMode) {
                        await DoorOpeningFlow(phone: phone).hangUpUnlessConfirmed(id, call: "guest mode: call \(id) from \(panel.name)",
                                                                                   outcome: "the door stays shut", on: self)
                    }
                }
            }
            if let earlier = session.replacesOnceConfirmed.first {
                // Answering it put the panel's earlier conversation on hold; unconfirmed, it goes.
                let call = "call \(id) from \(session.name ?? session.info.from)"
                session.start(CallSession.replacementConfirmation) {
                    await DoorOpeningFlow(phone: phone).hangUpUnlessConfirmed(id, call: call, outcome: "call \(earlier) goes on", on: self)
                }
            }
        case .confirmed(let id):
            guard let session = calls.move(id, { $0.confirm() }) else { return }
            if session.answeredBy == .guestMode, let panel = session.panel {
                DoorOpeningFlow(phone: phone).letGuestIn(id, panel: panel, on: self)
            }
            if !session.replacesOnceConfirmed.isEmpty { await incoming.replaceOnceConfirmed(session, on: self) }
        case .ended(let id, let phoneReason, let duration, let detail):
            let reason = PanelSyslogFlow().endReason(of: id, phoneReason, on: self)
            // Its tasks as a unit; a live picture's decode thread stops within a read: nothing
            // here waits for it, `stop` does.
            guard let session = calls.end(id, reason, detail: detail) else { return }
            if reason == .error { logger.warning("call \(id) failed: \(detail ?? "no reason given")") }
            // Ended before `dial` got its id back: `dial` reports the failure instead.
            if session.info.direction == .outgoing && !session.announced { return }
            let (bus, ref, who, time) = (bus, session.ref, session.endedWho, Date())
            await SiteCallFlow().ended(session, reason: reason, on: self) { takenAt in
                bus.publish(IntercomEvent(.callEnded(ref, reason: reason, durationSeconds: duration), time: time, who: who, takenAt: takenAt))
            }
            await unmuteAfterLastCall(phone: phone)
            if !session.replacesOnceConfirmed.isEmpty { await incoming.resumeUnreplaced(session, on: self) }
            if session.info.direction == .incoming && session.panel != nil { await incoming.answerHeldBack(after: id, on: self) }
        case .transferred(let id, let uri, let ok, let detail):
            transferReported(id, uri: uri, ok: ok, detail: detail)
        case .dtmfReceived(let id, let digit):
            logger.debug("call \(id): DTMF \(digit) received")
        case .dtmfSent(let id, let digits):
            logger.debug("call \(id): DTMF \(digits) sent")
        }
    }
}
