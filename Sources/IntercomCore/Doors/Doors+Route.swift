import Foundation
import IntercomBase
import IntercomOperator

/// Where an opening goes: decided at once from the command, the config and the calls held, with no
/// wait between the looks, so the engine then only carries it out.
enum DoorRoute {
    /// No door named while a stranger's call is held: refused (`Doors.callFromNoPanel`).
    case strangersCall(CallSession)
    /// In a call from an operator's panel (`DoorOpeningFlow.openInOperatorCall`).
    case operatorCall(CallSession)
    /// An operator's door by id, through its API.
    case operatorDoor((op: OperatorConfig, domophoneId: String, doorId: Int, id: String))
    /// `PANEL:DOOR`: that panel's door, routed again by the panel's name.
    case panelDoor(panel: String, Door)
    /// A ringing call a person opens for: answered muted, opened, hung up.
    case withoutTalking(CallSession)
    /// The panel's door, in `call` (its conversation) or outside one.
    case panel(PanelConfig, call: CallSession?)
}

extension Doors {
    /// The route of an opening of `name` (a panel, `PANEL:DOOR`, an operator door id; nil: the call's
    /// or the only panel) by `trigger`. `currentCall` is the engine's: a panel's answered call, else
    /// its ringing one. Throws when no panel is meant.
    static func route(_ name: String?, by trigger: DoorTrigger, in config: IntercomConfig, calls: some Sequence<CallSession>,
                      currentCall: (String?) -> CallSession?) throws(IntercomError) -> DoorRoute {
        if name == nil, let stranger = callFromNoPanel(calls) { return .strangersCall(stranger) }
        // A call from the named operator door (the TUI names the shown call's): opened in the call.
        if let name, let session = currentCall(name), session.operatorDoor != nil { return .operatorCall(session) }
        switch name.flatMap({ DoorTarget.resolve($0, in: config) }) {
        case .operatorDoor(let op, let domophoneId, let doorId, let id)?: return .operatorDoor((op, domophoneId, doorId, id))
        case .panel(let panel, let named?)?: return .panelDoor(panel: panel.name, named)
        case .panel(_, nil)?, nil: break
        }
        let session = currentCall(name)
        if let session, session.operatorDoor != nil { return .operatorCall(session) }
        if let ringing = session, ringing.stage == .ringing, !trigger.isAutomatic { return .withoutTalking(ringing) }
        return .panel(try resolvePanel(name ?? session?.panel?.name, in: config), call: session)
    }
}
