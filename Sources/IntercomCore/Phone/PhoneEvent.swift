import Foundation

/// Everything the phone tells the rest of the program. Delivered in the order liblinphone reported it.
public enum PhoneEvent: Sendable, Equatable {
    /// The core is up; these are the addresses really bound (port 0 resolved).
    case listening([ListenAddress])
    case registration(account: String, state: RegistrationState, reason: String?)
    /// A call rings here. The phone has sent 180 Ringing.
    case incoming(CallInfo)
    /// Our outgoing call is on its way.
    case outgoing(CallInfo)
    /// The remote side is ringing (outgoing calls).
    case ringing(CallID)
    /// Media runs in both directions.
    case established(CallID, CallMedia)
    case ended(CallID, reason: CallEndReason, duration: TimeInterval, detail: String?)
    case dtmfReceived(CallID, Character)
    /// All digits of a `sendDTMF` were sent.
    case dtmfSent(CallID, digits: String)
}
