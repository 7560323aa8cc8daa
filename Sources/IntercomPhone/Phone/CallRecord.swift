import CLinphone
import Foundation
import IntercomBase

/// The phone thread's book-keeping for one call. Never leaves that thread.
final class CallRecord {
    let call: OpaquePointer
    var info: CallInfo
    var connectedAt: Date?
    /// We terminated the call ourselves (hang-up or cancel of an outgoing call).
    var endedLocally = false
    /// We refused it while it rang.
    var declined = false
    var reportedEnd = false
    var reportedEstablished = false
    /// The caller's ACK for our 200 OK arrived.
    var ackReceived = false
    var reportedConfirmed = false
    /// Ended because its caller called again (a panel holds one call at a time).
    var replaced = false
    /// Where we asked the other side to take the call (REFER), until it reports the outcome.
    var transferTarget: String?
    /// The other side reported the transferred call connected: the call ended by being passed on.
    var transferred = false
    /// Taken off hold while liblinphone was still putting it on hold (a consultation cancelled at
    /// once): resumed as soon as it is paused.
    var resumeWhenPaused = false
    /// Where liblinphone records this call (both sides' audio mixed, and the received video), set
    /// at answer; recording starts once the streams run and stops as the call ends.
    var recordFile: String?
    var recording = false
    /// Pending digits of a DTMF sequence, sent one at a time from the phone thread's timers.
    var dtmfQueue: [Character] = []

    init(call: OpaquePointer, info: CallInfo) {
        self.call = call
        self.info = info
    }

    /// The `call_ended` reason, from what we did and what liblinphone says happened.
    /// `answeredElsewhere`: the caller's CANCEL said another device took the call (`answeredElsewhere(_:)`).
    func endReason(errorState: Bool, linphoneReason: LinphoneReason, answeredElsewhere: Bool = false) -> CallEndReason {
        if declined { return .declined }
        if transferred { return .transferred }
        // The caller left this call behind and called anew: it hung up, as far as it knows.
        if replaced { return connectedAt == nil ? .missed : .remoteHangup }
        if endedLocally { return .hangup }
        // liblinphone ends a call whose RTP stopped (the caller vanished, `nortp_timeout`) or whose
        // transport broke with an ordinary End state; only the IOError reason tells it from a BYE.
        if connectedAt != nil { return errorState || linphoneReason == LinphoneReasonIOError ? .error : .remoteHangup }
        switch info.direction {
        case .incoming:
            // The caller cancelled (another desk may have answered it), or the ring timed out.
            return answeredElsewhere ? .answeredElsewhere : .missed
        case .outgoing:
            // A refusal arrives as an error state with the refusal's reason.
            switch linphoneReason {
            case LinphoneReasonDeclined, LinphoneReasonBusy, LinphoneReasonForbidden,
                 LinphoneReasonDoNotDisturb, LinphoneReasonTemporarilyUnavailable:
                return .declined
            case LinphoneReasonNotAnswered:
                return .missed
            default:
                return .error
            }
        }
    }
}
