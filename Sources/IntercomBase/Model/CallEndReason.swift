/// Why a call ended: `call_ended`'s `reason` (docs/DAEMON.md).
public enum CallEndReason: String, Sendable, Equatable, Codable {
    /// We hung up an established call.
    case hangup
    /// The other side hung up an established call.
    case remoteHangup = "remote_hangup"
    /// We refused a ringing call (user, do-not-disturb, unknown caller).
    case declined
    /// The caller gave up (CANCEL) or the ring timed out before anyone answered.
    case missed
    /// The caller cancelled a ringing call because another device answered it: a forking
    /// registrar's CANCEL carrying `Reason: SIP;cause=200` (a second desk on the same account).
    case answeredElsewhere = "answered_elsewhere"
    /// We passed the call on (a blind transfer the other side carried out); the journal keeps to whom.
    case transferred
    /// Refused before it rang because the desk already had its most calls (`[sip] max_calls`):
    /// the caller got 486 Busy here. Still reported and journaled, as a missed call.
    case busy
    /// Signalling or media failed.
    case error
}
