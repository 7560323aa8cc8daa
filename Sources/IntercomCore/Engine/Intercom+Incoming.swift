import Foundation
import IntercomBase
import IntercomPhone
import IntercomModel

extension Intercom {
    /// A new call rings: who it is from (by its packets' source, then `match`), then the
    /// policies — refusal, do-not-disturb, guest mode, auto-answer.
    func incoming(_ info: CallInfo, phone: any PhoneService) async {
        guard let (panel, operatorDoor) = recognise(info) else {
            try? await phone.decline(info.id, reason: .forbidden)
            return
        }
        var inConversation: [CallID] = []
        if let panel { inConversation = await replaceEarlierCalls(of: panel, by: info, phone: phone) }
        let session = newSession(info, panel: panel, operatorDoor: operatorDoor, stage: .ringing, replacing: inConversation)
        calls.add(session)
        publish(.callIncoming(session.ref))
        if let operatorDoor { startOperatorPeephole(info.id, door: operatorDoor, phone: phone) }
        guard let panel else { return }
        if !panel.calls {
            logger.info("call \(info.id) from panel \(panel.name) declined: calls = off (do not disturb)")
            try? await phone.decline(info.id, reason: .doNotDisturb)
            return
        }
        startPeephole(info.id, panel: panel, phone: phone)
        if let earlier = inConversation.first, panel.isGuestModeActive(at: clock.date) || panel.autoAnswer != .off {
            // Answering would put the conversation on hold (liblinphone pauses the current call),
            // and an INVITE that only claims the panel's address would be let in by it.
            logger.notice("call \(info.id) from \(panel.name) is not answered automatically while its call \(earlier) is answered: it rings for you (or until that call ends)")
            return
        }
        await answerAsThePanelSays(info.id, panel: panel, phone: phone)
    }

    /// Guest mode, else auto-answer (at once or after its delay, a task of the call's).
    private func answerAsThePanelSays(_ id: CallID, panel: PanelConfig, phone: any PhoneService) async {
        if panel.isGuestModeActive(at: clock.date) {
            logger.notice("call \(id) from \(panel.name): guest mode, answering; the main door opens once the call is confirmed")
            do {
                try await answer(id, by: .guestMode, phone: phone)
            } catch {
                logger.warning("guest mode could not answer call \(id): \(error)")
            }
            return
        }
        switch panel.autoAnswer {
        case .off:
            break
        case .on:
            await autoAnswer(id, phone: phone)
        case .after(let seconds):
            let clock = clock
            calls[id]?.start(CallSession.pendingAnswer) { [weak self] in
                try? await clock.sleep(seconds: seconds)
                guard !Task.isCancelled else { return }
                await self?.autoAnswer(id, phone: phone)
            }
        }
    }

    /// A call ended: a call from the same panel that still rings, held back from guest mode and
    /// auto-answer while this one was answered (`incoming`), is answered as its panel says once
    /// no earlier call of its is left — as it would have been had it rung then.
    func answerHeldBack(after ended: CallID, phone: any PhoneService) async {
        for call in calls.heldBack(after: ended) {
            let id = call.info.id
            let left = calls.live(call.replacesOnceConfirmed.filter { $0 != ended })
            calls[id]?.replaces(left)
            guard left.isEmpty, let configured = call.panel, let panel = config.panel(named: configured.name), panel.calls else { continue }
            if panel.isGuestModeActive(at: clock.date) || panel.autoAnswer != .off {
                logger.info("call \(id) from \(panel.name): its earlier call \(ended) ended; answering it as [panel \(panel.name)] says")
            }
            await answerAsThePanelSays(id, panel: panel, phone: phone)
        }
    }

    /// Who a call is from (`CallerRecognition`); nil when it is refused.
    func recognise(_ info: CallInfo) -> (panel: PanelConfig?, operatorDoor: DoorListing?)? {
        let caller = callers.recognise(info, gate: callerGate, config: config, operatorDoors: operatorDoors, logger: logger)
        if caller.unlistedOperatorPanel { refreshOperatorDoorsSoon() }
        return caller.refused ? nil : (caller.panel, caller.operatorDoor)
    }

    /// A call the phone refused 486 Busy because it already held `[sip] max_calls` calls. The
    /// door rang all the same: it is reported as a call that came and ended at once, reason
    /// `busy`, so the journal keeps it as missed and the screens' queue shows it. Refused callers
    /// (impostors, strangers under `reject`) stay as unreported as when they ring.
    func refusedBusy(_ info: CallInfo, detail: String?) {
        guard let (panel, operatorDoor) = recognise(info) else { return }
        // Never held: it has no task to own.
        let session = CallSession(info: info, panel: panel, operatorDoor: operatorDoor, stage: .ringing, since: clock.date, census: nil)
        logger.notice("call \(info.id) from \(session.name ?? info.from) refused busy (\(detail ?? "486")): "
                      + "\(calls.count) calls held, [sip] max_calls is \(phoneSettings.maxCalls)")
        publish(.callIncoming(session.ref))
        publish(.callEnded(session.ref, reason: .busy, durationSeconds: 0))
    }

    /// A panel makes one call at a time: a new call from it means it lost our BYE or rebooted,
    /// and the calls we still hold from it are gone at its end. Holding them would leave the
    /// panel 486 Busy or a ghost call on screen. "It" is the same panel and the same SIP user
    /// (a `match` may cover several devices behind one address).
    ///
    /// But an INVITE only claims to be the panel's until it is confirmed (its ACK and media come
    /// from the panel's address): a forged one must not end the resident's conversation. So an
    /// earlier call still ringing (unanswered: nothing to lose, and the ghost of a rebooted panel
    /// would be answered first) is replaced now; one answered is returned, and ended only once
    /// the new call is confirmed (`replaceOnceConfirmed`). A ghost conversation nobody confirms
    /// ends by itself: its RTP stopped, and `[sip] media_timeout` ends it.
    private func replaceEarlierCalls(of panel: PanelConfig, by info: CallInfo, phone: any PhoneService) async -> [CallID] {
        let id = info.id
        var inConversation: [CallID] = []
        for old in calls.earlier(than: info, panel: panel.name) {
            guard old.stage == .ringing else {
                logger.notice("panel \(panel.name) called again (call \(id)) while its call \(old.info.id) is answered: that call ends only once the new one is answered and confirmed")
                inConversation.append(old.info.id)
                continue
            }
            logger.notice("panel \(panel.name) called again (call \(id)): ending its unanswered call \(old.info.id), which it no longer holds")
            try? await phone.replace(old.info.id)
        }
        return inConversation
    }

    /// A call from a panel that called again while its earlier call was answered is confirmed:
    /// it is the panel, which holds only this call; the earlier ones end.
    func replaceOnceConfirmed(_ session: CallSession, phone: any PhoneService) async {
        let id = session.info.id
        calls[id]?.replaces([])
        for old in calls.live(session.replacesOnceConfirmed) {
            logger.notice("call \(id) from \(session.name ?? session.info.from) is confirmed: ending its earlier call \(old), which the panel no longer holds")
            try? await phone.replace(old)
        }
    }

    /// A call that would have replaced earlier ones ended unconfirmed after it was answered: the
    /// earlier conversations it put on hold are taken off hold (a call not on hold is left as is).
    func resumeUnreplaced(_ ended: CallSession, phone: any PhoneService) async {
        guard ended.answeredBy != nil, !ended.confirmed else { return }
        for old in calls.live(ended.replacesOnceConfirmed) {
            logger.info("call \(ended.info.id) ended unconfirmed: taking call \(old) off hold")
            try? await phone.hold(old, false)
        }
    }
}
