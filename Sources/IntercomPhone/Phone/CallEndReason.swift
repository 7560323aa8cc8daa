/// Why a call ended: `call_ended`'s `reason` (README: Run the daemon).
public enum CallEndReason: String, Sendable, Equatable, Codable {
    /// We hung up an established call.
    case hangup
    /// The other side hung up an established call.
    case remoteHangup = "remote_hangup"
    /// We refused a ringing call (user, do-not-disturb, unknown caller).
    case declined
    /// The caller gave up (CANCEL) or the ring timed out before anyone answered.
    case missed
    /// Signalling or media failed.
    case error
}
