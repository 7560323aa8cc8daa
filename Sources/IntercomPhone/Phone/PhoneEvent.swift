import Foundation
import IntercomBase

/// Everything the phone tells the rest of the program. Delivered in the order liblinphone reported it.
public enum PhoneEvent: Sendable, Equatable {
    /// The core is up; these are the addresses really bound (port 0 resolved).
    case listening([ListenAddress])
    case registration(account: String, state: RegistrationState, reason: String?)
    /// A call rings here. The phone has sent 180 Ringing.
    case incoming(CallInfo)
    /// A call liblinphone refused with 486 Busy before it rang, because the core already held
    /// `PhoneSettings.maxCalls` calls. It has an id of its own but no call behind it: nothing
    /// more is reported about it, and no command can act on it.
    case refusedBusy(CallInfo, detail: String?)
    /// Our outgoing call is on its way.
    case outgoing(CallInfo)
    /// The remote side is ringing (outgoing calls).
    case ringing(CallID)
    /// Media runs in both directions.
    case established(CallID, CallMedia)
    /// An answered incoming call's dialog is confirmed: the caller's ACK arrived (it got our
    /// 200 OK at the address it called from) and its media reached us. A blind INVITE, or
    /// one whose source address was forged, never gets here.
    case confirmed(CallID)
    case ended(CallID, reason: CallEndReason, duration: TimeInterval, detail: String?)
    /// What became of a transfer we asked for (`Phone.transfer`): the other side's new call to
    /// `target` connected (`ok`), or it refused or failed (`detail` says how).
    case transferred(CallID, target: String, ok: Bool, detail: String?)
    case dtmfReceived(CallID, Character)
    /// All digits of a `sendDTMF` were sent.
    case dtmfSent(CallID, digits: String)
}
