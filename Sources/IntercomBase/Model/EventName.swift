/// Every event's `event` name: the one list that events, hooks (`on_NAME`) and their checks use,
/// so a new event cannot be an event that no hook can follow.
public enum EventName: String, Sendable, Equatable, CaseIterable {
    case started
    case registered
    case registrationFailed = "registration_failed"
    case callIncoming = "call_incoming"
    case callOutgoing = "call_outgoing"
    case peepholeFrame = "peephole_frame"
    case callAnswered = "call_answered"
    case doorOpened = "door_opened"
    case audioChanged = "audio_changed"
    case callEnded = "call_ended"
    case callTransferred = "call_transferred"
    case transferConsult = "transfer_consult"
    case panelEvent = "panel_event"
    case panelCalling = "panel_calling"
    case callAnsweredElsewhere = "call_answered_elsewhere"
    case panelUnreachable = "panel_unreachable"
    case panelReachable = "panel_reachable"
    case panelPolicy = "panel_policy"
    case siteUnreachable = "site_unreachable"
    case siteReachable = "site_reachable"
    case operatorEvent = "operator_event"
    case operatorMessage = "operator_message"
    case shareExpired = "share_expired"
    case error
}
