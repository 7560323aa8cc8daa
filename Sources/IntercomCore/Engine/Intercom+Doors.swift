import Foundation
import IntercomBase
import IntercomPhone
import IntercomModel

/// Openings routed between the calls, the doors part (`Doors`) and the phone and panels.
extension Intercom {
    /// Opens `door`. In a call from a panel, per the panel's `open` method; outside a call,
    /// through the panel's HTTP API. Every attempt is reported as `door_opened` with what
    /// triggered it; automatic ones (`DoorTrigger.isAutomatic`) wait for a confirmed call and
    /// are limited to one per `auto_open_interval` per panel.
    ///
    /// `name` may also be a door id (`Doors.route`): an operator's (`home:1:0`) or `PANEL:DOOR`.
    func open(panel name: String?, door: Door, by trigger: DoorTrigger, phone: any PhoneService) async throws -> JSONValue {
        switch try Doors.route(name, by: trigger, in: config, calls: calls.values, currentCall: { self.currentCall(panel: $0) }) {
        case .strangersCall(let stranger):
            logger.notice("opening of door \(door) (\(trigger.rawValue)) refused: it names no door and call \(stranger.info.id) is from no panel")
            throw IntercomError.notAPanelCall(stranger.info.id, caller: stranger.caller)
        case .operatorCall(let session):
            return try await openInOperatorCall(session, door: door, by: trigger, phone: phone)
        case .operatorDoor(let target):
            return try await openOperatorDoor(target, by: trigger, call: nil)
        case .panelDoor(let panel, let named):
            return try await open(panel: panel, door: named, by: trigger, phone: phone)
        case .withoutTalking(let ringing):
            return try await openWithoutTalking(ringing, door: door, by: trigger, phone: phone)
        case .panel(let panel, let session):
            if trigger.isAutomatic { try await admitAutomaticOpen(of: panel, door: door, by: trigger, call: session) }
            var attempts: [(method: DoorOpenMethod, error: (any Error)?)] = []
            for method in Doors.methods(panel, inConversation: session?.stage == .active) {
                let attempt = Doors.attempt(method, door: door, panel: panel, call: session?.info.id, client: panels[panel.name], phone: phone)
                var error: (any Error)?
                do { try await attempt() } catch let failure { error = failure }
                reportDoor(owner: panel.name, call: session?.ref, door: door.description, method: method.rawValue, by: trigger, error: error)
                attempts.append((method, error))
            }
            return try Doors.reply(panel: panel.name, door: door, attempts: attempts)
        }
    }

    /// Open before answering, as the SmartYard app does: answer with the microphone muted, open
    /// once media runs (DTMF needs it), then hang up.
    private func openWithoutTalking(_ ringing: CallSession, door: Door, by trigger: DoorTrigger, phone: any PhoneService) async throws -> JSONValue {
        let id = ringing.info.id
        try await phone.setMicrophoneMuted(true, call: nil)
        let outcome: Result<JSONValue, any Error>
        do {
            try await answer(id, by: trigger == .notification ? .notification : .user, phone: phone)
            guard try await wait(for: id, upTo: 5, until: { $0.stage == .active }) == .reached else {
                throw IntercomError.noCall("answered")
            }
            let result = try await open(panel: ringing.panel?.name, door: door, by: trigger, phone: phone)
            if let panel = ringing.panel { try await clock.sleep(seconds: Doors.dtmfSeconds(panel)) }
            try? await ending(id) { try await phone.hangup(id) }
            outcome = .success(result)
        } catch {
            outcome = .failure(error)
        }
        // Awaited, not left to a task of its own: the microphone is as it was when this returns.
        try? await phone.setMicrophoneMuted(muted, call: nil)
        return try outcome.get()
    }

    /// An opening nobody at a keyboard asked for (guest mode, a hook) goes ahead only in a
    /// confirmed call — the caller's ACK and media arrived, so it is the panel at the address it
    /// called from — and at most once per `auto_open_interval` per panel. A refusal is reported
    /// and journaled like any failed opening.
    private func admitAutomaticOpen(of panel: PanelConfig, door: Door, by trigger: DoorTrigger, call: CallSession?) async throws {
        do {
            if let call, call.info.direction == .incoming {
                switch try await wait(for: call.info.id, upTo: Self.confirmationWait, until: \.confirmed) {
                case .reached: break
                case .ended: throw IntercomError.noCall("confirmed")
                case .timedOut: throw IntercomError.refused(
                    "call \(call.info.id) is not confirmed (no ACK or no media from the caller): automatic openings wait for it")
                }
            }
            try doors.admitAutomatic(panel.name, interval: panel.autoOpenInterval, at: clock.date) {
                "automatic openings of \(panel.name) are limited to one per \($0) (auto_open_interval in [panel \(panel.name)])"
            }
        } catch {
            reportDoor(owner: panel.name, call: call?.ref, door: door.description, method: "none", by: trigger, error: error)
            throw error
        }
    }

    /// How long an automatic opening in a call waits for the call to be confirmed.
    static let confirmationWait: TimeInterval = 5

    /// An answered call that must prove it is the panel (guest mode's; a panel's call that would
    /// replace its earlier conversation): without a confirmation within the wait, it was no panel
    /// that can hear us (a blind or forged INVITE), so it is hung up. `call` names it in the log
    /// line, `outcome` says what that leaves as it is.
    func hangUpUnlessConfirmed(_ id: CallID, phone: any PhoneService, call: String, outcome: String) async {
        guard (try? await wait(for: id, upTo: Self.confirmationWait, until: \.confirmed)) == .timedOut else { return }
        logger.warning("\(call) was not confirmed (no ACK or no media) within \(Doors.seconds(Self.confirmationWait)); hanging up, \(outcome)")
        try? await ending(id) { try await phone.hangup(id) }
    }

    /// Guest mode: the call was answered for the guest and is confirmed; open the main door,
    /// then hang up once the opening is through (the DTMF digits take their time on the wire).
    /// The opening is the engine's task: begun, it goes through even if the caller hangs up
    /// meanwhile, as a key's would. The wait to hang up is the call's, and ends with it.
    func letGuestIn(_ id: CallID, panel: PanelConfig, phone: any PhoneService) {
        tasks.start {
            _ = try? await self.open(panel: panel.name, door: .main, by: .guestMode, phone: phone)
            await self.hangUpAfterGuestOpening(id, panel: panel, phone: phone)
        }
    }

    private func hangUpAfterGuestOpening(_ id: CallID, panel: PanelConfig, phone: any PhoneService) {
        let clock = clock, seconds = Doors.dtmfSeconds(panel)
        calls[id]?.start(CallSession.guestHangUp) {
            do { try await clock.sleep(seconds: seconds) } catch { return }
            await self.guestHangUp(id, phone: phone)
        }
    }

    /// Guest mode ends the call itself: `call_ended` names it.
    private func guestHangUp(_ id: CallID, phone: any PhoneService) async {
        try? await Self.$acting.withValue(.guestMode) { try await ending(id) { try await phone.hangup(id) } }
    }

    /// `owner` is the panel's name or the operator's; `door` a panel's door or an operator door id.
    func reportDoor(owner: String, call: IntercomEvent.CallRef?, door: String, method: String, by trigger: DoorTrigger,
                    error: Error?) {
        if let error { logger.warning("door \(door) of \(owner) did not open by \(method) (\(trigger.rawValue)): \(error)") }
        bus.publish(IntercomEvent(.doorOpened(panel: owner, call: call, door: door, method: method,
                                              by: trigger, ok: error == nil, error: error.map { "\($0)" }),
                                  who: who(opening: trigger)))
    }

    /// The panel a command names, or the only one there is.
    func resolvePanel(_ name: String?) throws(IntercomError) -> PanelConfig { try Doors.resolvePanel(name, in: config) }
}
