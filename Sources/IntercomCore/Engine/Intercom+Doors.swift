import Foundation
import IntercomBase
import IntercomOperator
import IntercomPhone
import IntercomModel

extension Intercom {
    /// Opens `door`. In a call from a panel, per the panel's `open` method; outside a call,
    /// through the panel's HTTP API. Every attempt is reported as `door_opened` with what
    /// triggered it; automatic ones (`DoorTrigger.isAutomatic`) wait for a confirmed call and
    /// are limited to one per `auto_open_interval` per panel.
    ///
    /// `name` may also be a door id: an operator's (`home:1:0`, opened through its API) or
    /// `PANEL:DOOR` (`entrance:alt`). In a call from an operator's panel, see `openInOperatorCall`.
    ///
    /// Doors open only for a panel's (or an operator door's) call: without a name, while a call
    /// from no panel is held, the opening is refused (`notAPanelCall`) — see `callFromNoPanel`.
    func open(panel name: String?, door: Door, by trigger: DoorTrigger, phone: any PhoneService) async throws -> JSONValue {
        if name == nil, let stranger = callFromNoPanel() {
            logger.notice("opening of door \(door) (\(trigger.rawValue)) refused: it names no door and call \(stranger.info.id) is from no panel")
            throw IntercomError.notAPanelCall(stranger.info.id, caller: stranger.caller)
        }
        // A call from the named operator door (the TUI names the shown call's): opened in the call.
        if let name, let session = currentCall(panel: name), session.operatorDoor != nil {
            return try await openInOperatorCall(session, door: door, by: trigger, phone: phone)
        }
        switch name.flatMap({ DoorTarget.resolve($0, in: config) }) {
        case .operatorDoor(let op, let domophoneId, let doorId, let id)?:
            return try await openOperatorDoor((op, domophoneId, doorId, id), by: trigger, call: nil)
        case .panel(let panel, let named?)?:
            return try await open(panel: panel.name, door: named, by: trigger, phone: phone)
        case .panel(_, nil)?, nil:
            break
        }
        let session = currentCall(panel: name)
        if let session, session.operatorDoor != nil {
            return try await openInOperatorCall(session, door: door, by: trigger, phone: phone)
        }
        if let ringing = session, ringing.stage == .ringing, !trigger.isAutomatic {
            return try await openWithoutTalking(ringing, door: door, by: trigger, phone: phone)
        }
        let panel = try resolvePanel(name ?? session?.panel?.name)
        if trigger.isAutomatic {
            try await admitAutomaticOpen(of: panel, door: door, by: trigger, call: session)
        }
        let methods: [DoorOpenMethod]
        if let session, session.stage == .active {
            switch panel.open {
            case .http: methods = [.http]
            case .dtmf: methods = [.dtmf]
            case .both: methods = [.http, .dtmf]
            }
        } else {
            methods = [.http]
        }
        var results: [JSONValue] = []
        var firstError: Error?
        for method in methods {
            do {
                switch method {
                case .dtmf:
                    guard let session, let digits = dtmfDigits(for: door, panel: panel) else {
                        throw IntercomError.unknownPanel("panel \(panel.name) has no DTMF code for door \(door): set dtmf.main / dtmf.alt")
                    }
                    try await phone.sendDTMF(session.info.id, digits: digits, timing: panel.dtmfTiming)
                default:
                    guard let client = panels[panel.name] else {
                        throw IntercomError.unknownPanel("panel \(panel.name) has no usable url; fix [panel \(panel.name)] url")
                    }
                    try await client.open(door: door)
                }
                reportDoor(panel: panel.name, call: session?.ref, door: door, method: method.rawValue, by: trigger, error: nil)
                results.append(.object([("method", .string(method.rawValue)), ("ok", .bool(true))]))
            } catch {
                reportDoor(panel: panel.name, call: session?.ref, door: door, method: method.rawValue, by: trigger, error: error)
                results.append(.object([("method", .string(method.rawValue)), ("ok", .bool(false)),
                                        ("error", .string("\(error)"))]))
                if firstError == nil { firstError = error }
            }
        }
        // With `both`, one way through is enough.
        if results.count == 1 || results.allSatisfy({ $0["ok"]?.boolValue == false }), let firstError {
            throw firstError
        }
        return .object([("panel", .string(panel.name)), ("door", .string(door.description)), ("attempts", .array(results))])
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
            if let panel = ringing.panel { try await clock.sleep(seconds: dtmfSeconds(panel)) }
            try? await ending(id) { try await phone.hangup(id) }
            outcome = .success(result)
        } catch {
            outcome = .failure(error)
        }
        // Awaited, not left to a task of its own: the microphone is as it was when this returns.
        try? await phone.setMicrophoneMuted(muted, call: nil)
        return try outcome.get()
    }

    /// A held call from no panel (a stranger's under `unknown_callers = accept`, an attended
    /// transfer's consultation), the longest-held first. An opening that names no door may mean
    /// it — a face sends no name for a call without a panel — and there is no door of its own to
    /// open: falling back to another call or to the only panel would open a door for whoever the
    /// stranger is, and with `open = dtmf` play the panel's door code into the stranger's call.
    private func callFromNoPanel() -> CallSession? {
        calls.values.filter { $0.panel == nil && $0.operatorDoor == nil }.sorted { $0.since < $1.since }.first
    }

    /// How long the panel's door code takes on the wire (0 when doors open over HTTP).
    func dtmfSeconds(_ panel: PanelConfig) -> Double {
        guard panel.open != .http else { return 0 }
        let timing = panel.dtmfTiming
        let digits = Double(panel.dtmfMain.count)
        let rounds = Double(max(1, timing.repeat))
        return rounds * digits * Double(timing.durationMs + 40) / 1000 + (rounds - 1) * Double(timing.gapMs) / 1000 + 0.5
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
        let clock = clock
        let seconds = dtmfSeconds(panel)
        calls[id]?.start(CallSession.guestHangUp) {
            do { try await clock.sleep(seconds: seconds) } catch { return }
            await self.guestHangUp(id, phone: phone)
        }
    }

    /// Guest mode ends the call itself: `call_ended` names it.
    private func guestHangUp(_ id: CallID, phone: any PhoneService) async {
        try? await Self.$acting.withValue(.guestMode) { try await ending(id) { try await phone.hangup(id) } }
    }

    private func dtmfDigits(for door: Door, panel: PanelConfig) -> String? {
        switch door {
        case .main: panel.dtmfMain
        case .alt: panel.dtmfAlt
        default: nil
        }
    }

    func reportDoor(panel: String, call: IntercomEvent.CallRef?, door: Door, method: String, by trigger: DoorTrigger,
                    error: Error?) {
        reportDoor(owner: panel, call: call, door: door.description, method: method, by: trigger, error: error)
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
    func resolvePanel(_ name: String?) throws -> PanelConfig {
        if let name {
            guard let panel = config.panel(named: name) else {
                let known = config.panels.map(\.name).joined(separator: ", ")
                throw IntercomError.unknownPanel("no panel '\(name)' in the config" + (known.isEmpty ? "" : "; panels: \(known)"))
            }
            return panel
        }
        guard config.panels.count == 1, let only = config.panels.first else {
            throw IntercomError.unknownPanel(config.panels.isEmpty
                ? "no panel in the config: add a [panel NAME] section"
                : "several panels: name one of \(config.panels.map(\.name).joined(separator: ", "))")
        }
        return only
    }
}
