import Foundation
import IntercomBase
import IntercomPhone

/// A door's opening as a call carries it: routed between the calls, the doors part (`Doors`),
/// the operators and the panels; opened before answering (answer muted, open, hang up); guest
/// mode's open-then-hang-up; the wait for a confirmed call before an automatic opening. It drives
/// the phone on the engine (`isolated Intercom`): the registry is read again after every await.
struct DoorOpeningFlow {
    let phone: any PhoneService

    /// How long an automatic opening in a call waits for the call to be confirmed.
    static let confirmationWait: TimeInterval = 5

    /// Opens `door`. In a call from a panel, per the panel's `open` method; outside a call,
    /// through the panel's HTTP API. Every attempt is reported as `door_opened` with what
    /// triggered it; automatic ones (`DoorTrigger.isAutomatic`) wait for a confirmed call and
    /// are limited to one per `auto_open_interval` per panel.
    ///
    /// `name` may also be a door id (`Doors.route`): an operator's (`home:1:0`) or `PANEL:DOOR`.
    func open(panel name: String?, door: Door, by trigger: DoorTrigger, on engine: isolated Intercom) async throws -> JSONValue {
        switch try Doors.route(name, by: trigger, in: engine.config, calls: engine.calls.values, currentCall: { engine.currentCall(panel: $0) }) {
        case .strangersCall(let stranger):
            engine.logger.notice("opening of door \(door) (\(trigger.rawValue)) refused: it names no door and call \(stranger.info.id) is from no panel")
            throw IntercomError.notAPanelCall(stranger.info.id, caller: stranger.caller)
        case .operatorCall(let session):
            return try await openInOperatorCall(session, door: door, by: trigger, on: engine)
        case .operatorDoor(let target):
            return try await engine.openOperatorDoor(target, by: trigger, call: nil)
        case .panelDoor(let panel, let named):
            return try await open(panel: panel, door: named, by: trigger, on: engine)
        case .withoutTalking(let ringing):
            return try await answerMutedAndOpen(ringing.info.id, by: trigger == .notification ? .notification : .user,
                                                digitsSeconds: ringing.panel.map(Doors.dtmfSeconds), on: engine) {
                try await open(panel: ringing.panel?.name, door: door, by: trigger, on: engine)
            }
        case .panel(let panel, let session):
            if trigger.isAutomatic { try await admitAutomaticOpen(of: panel, door: door, by: trigger, call: session, on: engine) }
            var attempts: [(method: DoorOpenMethod, error: (any Error)?)] = []
            for method in Doors.methods(panel, inConversation: session?.stage == .active) {
                let attempt = Doors.attempt(method, door: door, panel: panel, call: session?.info.id, client: engine.panels[panel.name], phone: phone)
                var error: (any Error)?
                do { try await attempt() } catch let failure { error = failure }
                engine.reportDoor(owner: panel.name, call: session?.ref, door: door.description, method: method.rawValue, by: trigger, error: error)
                attempts.append((method, error))
            }
            return try Doors.reply(panel: panel.name, door: door, attempts: attempts)
        }
    }

    /// `o` in a call from an operator's panel: the door's digit in the call, as SmartYard's apps
    /// do (a ringing call is answered muted first and hung up after), or the operator's API.
    private func openInOperatorCall(_ session: CallSession, door: Door, by trigger: DoorTrigger, on engine: isolated Intercom) async throws -> JSONValue {
        let (op, listing): (OperatorConfig, DoorListing)
        switch try engine.operators.opening(in: session.operatorDoor, door: door, config: engine.config) {
        case .api(let t): return try await engine.openOperatorDoor((t.op, t.domophoneId, t.doorId, t.id), by: trigger, call: session)
        case .dtmf(let o, let l): (op, listing) = (o, l)
        }
        let id = session.info.id, ringing = session.stage == .ringing
        let report = { (error: (any Error)?, method: String) in
            engine.reportDoor(owner: op.name, call: session.ref, door: listing.id, method: method, by: trigger, error: error)
        }
        if trigger.isAutomatic {
            // As for a panel: only in a confirmed call (the caller's ACK and media came), and rate-limited.
            do {
                guard !ringing, engine.calls[id]?.confirmed == true else {
                    throw IntercomError.refused("call \(id) is not confirmed (no ACK or no media from the caller): automatic openings wait for it")
                }
                try engine.operators.admitAutomaticOpen(listing.id)
            } catch { report(error, "none"); throw error }
        }
        let sendDigit = {
            do {
                try await phone.sendDTMF(id, digits: OperatorAccounts.dtmfDigit, timing: DTMFTiming())
                report(nil, "dtmf")
            } catch { report(error, "dtmf"); throw error }
            return OperatorAccounts.opened(op.name, door: listing.id, method: "dtmf")
        }
        guard ringing else { return try await sendDigit() }
        return try await answerMutedAndOpen(id, by: .user, digitsSeconds: 1, on: engine, sendDigit)
    }

    /// Open before answering, as the SmartYard app does: answer with the microphone muted, open
    /// once media runs (DTMF needs it), give the digits `digitsSeconds` on the wire, then hang up.
    /// A failed opening leaves the call up. Awaited, not left to a task of its own: the
    /// microphone is as it was when this returns.
    private func answerMutedAndOpen(_ id: CallID, by answeredBy: IntercomEvent.AnsweredBy, digitsSeconds: TimeInterval?,
                                    on engine: isolated Intercom, _ opening: () async throws -> JSONValue) async throws -> JSONValue {
        try await phone.setMicrophoneMuted(true, call: nil)
        let outcome: Result<JSONValue, any Error>
        do {
            try await engine.answer(id, by: answeredBy, phone: phone)
            guard try await engine.wait(for: id, upTo: 5, until: { $0.stage == .active }) == .reached else {
                throw IntercomError.noCall("answered")
            }
            let result = try await opening()
            if let digitsSeconds { try await engine.clock.sleep(seconds: digitsSeconds) }
            try? await engine.ending(id) { try await phone.hangup(id) }
            outcome = .success(result)
        } catch {
            outcome = .failure(error)
        }
        try? await phone.setMicrophoneMuted(engine.audio.muted, call: nil)
        return try outcome.get()
    }

    /// An opening nobody at a keyboard asked for (guest mode, a hook) goes ahead only in a
    /// confirmed call — the caller's ACK and media arrived, so it is the panel at the address it
    /// called from — and at most once per `auto_open_interval` per panel. A refusal is reported
    /// and journaled like any failed opening.
    private func admitAutomaticOpen(of panel: PanelConfig, door: Door, by trigger: DoorTrigger, call: CallSession?,
                                    on engine: isolated Intercom) async throws {
        do {
            if let call, call.info.direction == .incoming {
                switch try await engine.wait(for: call.info.id, upTo: Self.confirmationWait, until: \.confirmed) {
                case .reached: break
                case .ended: throw IntercomError.noCall("confirmed")
                case .timedOut: throw IntercomError.refused(
                    "call \(call.info.id) is not confirmed (no ACK or no media from the caller): automatic openings wait for it")
                }
            }
            try engine.doors.admitAutomatic(panel.name, interval: panel.autoOpenInterval, at: engine.clock.date) {
                "automatic openings of \(panel.name) are limited to one per \($0) (auto_open_interval in [panel \(panel.name)])"
            }
        } catch {
            engine.reportDoor(owner: panel.name, call: call?.ref, door: door.description, method: "none", by: trigger, error: error)
            throw error
        }
    }

    /// An answered call that must prove it is the panel (guest mode's; a panel's call that would
    /// replace its earlier conversation): without a confirmation within the wait, it was no panel
    /// that can hear us (a blind or forged INVITE), so it is hung up. `call` names it in the log
    /// line, `outcome` says what that leaves as it is.
    func hangUpUnlessConfirmed(_ id: CallID, call: String, outcome: String, on engine: isolated Intercom) async {
        guard (try? await engine.wait(for: id, upTo: Self.confirmationWait, until: \.confirmed)) == .timedOut else { return }
        engine.logger.warning("\(call) was not confirmed (no ACK or no media) within \(Doors.seconds(Self.confirmationWait)); hanging up, \(outcome)")
        try? await engine.ending(id) { try await phone.hangup(id) }
    }

    /// Guest mode: the call was answered for the guest and is confirmed; open the main door,
    /// then hang up once the opening is through (the DTMF digits take their time on the wire).
    /// The opening is the engine's task: begun, it goes through even if the caller hangs up
    /// meanwhile, as a key's would. The wait to hang up is the call's, and ends with it.
    func letGuestIn(_ id: CallID, panel: PanelConfig, on engine: isolated Intercom) {
        engine.tasks.start { [self, engine] in
            _ = try? await open(panel: panel.name, door: .main, by: .guestMode, on: engine)
            await hangUpAfterGuestOpening(id, panel: panel, on: engine)
        }
    }

    private func hangUpAfterGuestOpening(_ id: CallID, panel: PanelConfig, on engine: isolated Intercom) {
        let clock = engine.clock, seconds = Doors.dtmfSeconds(panel)
        engine.calls[id]?.start(CallSession.guestHangUp) { [self, engine] in
            do { try await clock.sleep(seconds: seconds) } catch { return }
            await guestHangUp(id, on: engine)
        }
    }

    /// Guest mode ends the call itself: `call_ended` names it.
    private func guestHangUp(_ id: CallID, on engine: isolated Intercom) async {
        try? await Intercom.$acting.withValue(.guestMode) { try await engine.ending(id) { try await phone.hangup(id) } }
    }
}
