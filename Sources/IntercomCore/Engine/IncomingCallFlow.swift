import Foundation
import IntercomBase
import IntercomPhone

/// A call that rings, from its INVITE to its answer: who it is from (`CallerRecognition`), the
/// panel's earlier calls it replaces, then the policies — refusal, do-not-disturb, guest mode,
/// auto-answer. It drives the phone on the engine (`isolated Intercom`): the registry is read
/// again after every await, as the actor is reentered while the phone works.
struct IncomingCallFlow {
    let phone: any PhoneService

    /// A new call rings: who it is from (by its packets' source, then `match`), then the
    /// policies — refusal, do-not-disturb, guest mode, auto-answer.
    func ring(_ info: CallInfo, on engine: isolated Intercom) async {
        guard let (panel, operatorDoor) = recognise(info, on: engine) else {
            try? await phone.decline(info.id, reason: .forbidden)
            return
        }
        var inConversation: [CallID] = []
        if let panel { inConversation = await replaceEarlierCalls(of: panel, by: info, on: engine) }
        let session = engine.newSession(info, panel: panel, operatorDoor: operatorDoor, stage: .ringing, replacing: inConversation)
        engine.calls.add(session)
        engine.publish(.callIncoming(session.ref))
        // A desk of a site off duty refuses its fork of the call (the other desks ring on).
        guard await SiteCallFlow().rings(session, on: engine) else {
            try? await phone.decline(info.id, reason: .temporarilyUnavailable)
            return
        }
        guard engine.calls[info.id] != nil else { return }
        SiteCallFlow().startEscalation(info.id, phone: phone, on: engine)
        if let operatorDoor { engine.startOperatorPeephole(info.id, door: operatorDoor, phone: phone) }
        guard let panel else { return }
        if !panel.calls {
            engine.logger.info("call \(info.id) from panel \(panel.name) declined: calls = off (do not disturb)")
            try? await phone.decline(info.id, reason: .doNotDisturb)
            return
        }
        engine.startPeephole(info.id, panel: panel, phone: phone)
        if let earlier = inConversation.first, panel.isGuestModeActive(at: engine.clock.date) || panel.autoAnswer != .off {
            // Answering would put the conversation on hold (liblinphone pauses the current call),
            // and an INVITE that only claims the panel's address would be let in by it.
            engine.logger.notice("call \(info.id) from \(panel.name) is not answered automatically while its call \(earlier) is answered: it rings for you (or until that call ends)")
            return
        }
        await answerAsThePanelSays(info.id, panel: panel, on: engine)
    }

    /// Guest mode, else auto-answer (at once or after its delay, a task of the call's).
    private func answerAsThePanelSays(_ id: CallID, panel: PanelConfig, on engine: isolated Intercom) async {
        if panel.isGuestModeActive(at: engine.clock.date) {
            engine.logger.notice("call \(id) from \(panel.name): guest mode, answering; the main door opens once the call is confirmed")
            do {
                try await engine.answer(id, by: .guestMode, phone: phone)
            } catch {
                engine.logger.warning("guest mode could not answer call \(id): \(error)")
            }
            return
        }
        switch panel.autoAnswer {
        case .off:
            break
        case .on:
            await engine.autoAnswer(id, phone: phone)
        case .after(let seconds):
            let clock = engine.clock
            let phone = phone
            engine.calls[id]?.start(CallSession.pendingAnswer) { [weak engine] in
                try? await clock.sleep(seconds: seconds)
                guard !Task.isCancelled else { return }
                await engine?.autoAnswer(id, phone: phone)
            }
        }
    }

    /// A call ended: a call from the same panel that still rings, held back from guest mode and
    /// auto-answer while this one was answered (`ring`), is answered as its panel says once
    /// no earlier call of its is left — as it would have been had it rung then.
    func answerHeldBack(after ended: CallID, on engine: isolated Intercom) async {
        for call in engine.calls.heldBack(after: ended) {
            let id = call.info.id
            let left = engine.calls.live(call.replacesOnceConfirmed.filter { $0 != ended })
            engine.calls[id]?.replaces(left)
            guard left.isEmpty, let configured = call.panel, let panel = engine.config.panel(named: configured.name), panel.calls else { continue }
            if panel.isGuestModeActive(at: engine.clock.date) || panel.autoAnswer != .off {
                engine.logger.info("call \(id) from \(panel.name): its earlier call \(ended) ended; answering it as [panel \(panel.name)] says")
            }
            await answerAsThePanelSays(id, panel: panel, on: engine)
        }
    }

    /// Who a call is from (`CallerRecognition`); nil when it is refused.
    private func recognise(_ info: CallInfo, on engine: isolated Intercom) -> (panel: PanelConfig?, operatorDoor: DoorListing?)? {
        let caller = engine.callers.recognise(info, gate: engine.callerGate, config: engine.config,
                                              operatorDoors: engine.operatorDoors, logger: engine.logger)
        if caller.unlistedOperatorPanel { engine.refreshOperatorDoorsSoon() }
        return caller.refused ? nil : (caller.panel, caller.operatorDoor)
    }

    /// A call the phone refused 486 Busy because it already held `[sip] max_calls` calls. The
    /// door rang all the same: it is reported as a call that came and ended at once, reason
    /// `busy`, so the journal keeps it as missed and the screens' queue shows it. Refused callers
    /// (impostors, strangers under `reject`) stay as unreported as when they ring.
    func refusedBusy(_ info: CallInfo, detail: String?, on engine: isolated Intercom) {
        guard let (panel, operatorDoor) = recognise(info, on: engine) else { return }
        // Never held: it has no task to own.
        let session = CallSession(info: info, panel: panel, operatorDoor: operatorDoor, stage: .ringing, since: engine.clock.date, census: nil)
        engine.logger.notice("call \(info.id) from \(session.name ?? info.from) refused busy (\(detail ?? "486")): "
                             + "\(engine.calls.count) calls held, [sip] max_calls is \(engine.phoneSettings.maxCalls)")
        engine.publish(.callIncoming(session.ref))
        engine.publish(.callEnded(session.ref, reason: .busy, durationSeconds: 0))
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
    private func replaceEarlierCalls(of panel: PanelConfig, by info: CallInfo, on engine: isolated Intercom) async -> [CallID] {
        let id = info.id
        var inConversation: [CallID] = []
        for old in engine.calls.earlier(than: info, panel: panel.name) {
            guard old.stage == .ringing else {
                engine.logger.notice("panel \(panel.name) called again (call \(id)) while its call \(old.info.id) is answered: that call ends only once the new one is answered and confirmed")
                inConversation.append(old.info.id)
                continue
            }
            engine.logger.notice("panel \(panel.name) called again (call \(id)): ending its unanswered call \(old.info.id), which it no longer holds")
            try? await phone.replace(old.info.id)
        }
        return inConversation
    }

    /// A call from a panel that called again while its earlier call was answered is confirmed:
    /// it is the panel, which holds only this call; the earlier ones end.
    func replaceOnceConfirmed(_ session: CallSession, on engine: isolated Intercom) async {
        let id = session.info.id
        engine.calls[id]?.replaces([])
        for old in engine.calls.live(session.replacesOnceConfirmed) {
            engine.logger.notice("call \(id) from \(session.name ?? session.info.from) is confirmed: ending its earlier call \(old), which the panel no longer holds")
            try? await phone.replace(old)
        }
    }

    /// A call that would have replaced earlier ones ended unconfirmed after it was answered: the
    /// earlier conversations it put on hold are taken off hold (a call not on hold is left as is).
    func resumeUnreplaced(_ ended: CallSession, on engine: isolated Intercom) async {
        guard ended.answeredBy != nil, !ended.confirmed else { return }
        for old in engine.calls.live(ended.replacesOnceConfirmed) {
            engine.logger.info("call \(ended.info.id) ended unconfirmed: taking call \(old) off hold")
            try? await phone.hold(old, false)
        }
    }
}
