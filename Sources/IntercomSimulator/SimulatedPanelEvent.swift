import IntercomPhone
import IntercomBase

/// What happens at a simulated panel, in order.
public enum SimulatedPanelEvent: Sendable, Equatable {
    /// `ring` placed a call to `to`.
    case calling(CallID, to: String)
    /// The callee reports ringing (180/183).
    case ringing(CallID)
    /// Someone called the panel (a live view); it answers when `answersIncomingCalls`.
    case incoming(CallID, from: String)
    /// Media runs both ways.
    case answered(CallID, CallMedia)
    /// An RFC 2833 digit arrived, door digit or not.
    case dtmf(CallID, Character)
    /// A door opened, by HTTP CGI or by a door digit in a call.
    case doorOpened(SimulatedDoorEvent)
    /// `missed` when the panel gave up ringing (its ring timeout) or the callee never answered.
    case ended(CallID, reason: CallEndReason, duration: Double)
}
