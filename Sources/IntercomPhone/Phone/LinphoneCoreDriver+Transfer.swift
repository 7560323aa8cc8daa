import CLinphone
import Foundation
import IntercomBase

/// Blind transfer (REFER) and attended transfer (hold, consult, REFER with Replaces): the
/// concierge passes a panel's call on to a flat.
extension LinphoneCoreDriver {
    static func callID(_ call: OpaquePointer) -> String? {
        linphone_call_get_call_log(call).flatMap { linphone_call_log_get_call_id($0) }.map { String(cString: $0) }
    }

    func transfer(_ id: CallID, to uri: String) throws(PhoneError) {
        let record = try record(id)
        let state = linphone_call_get_state(record.call)
        guard state == LinphoneCallStateStreamsRunning || state == LinphoneCallStatePaused else {
            throw .wrongState(id, "only an answered call can be transferred")
        }
        guard record.transferTarget == nil else { throw .wrongState(id, "a transfer of it is already under way") }
        guard let address = linphone_core_interpret_url(core, uri) else { throw .badURI(uri) }
        defer { linphone_address_unref(address) }
        guard linphone_call_transfer_to(record.call, address) == 0 else {
            throw .wrongState(id, "liblinphone refused to send the transfer")
        }
        record.transferTarget = uri
    }

    /// Puts an answered call on hold (re-INVITE a=sendonly) or takes it off hold. Asking for the
    /// state a call is already in does nothing.
    func hold(_ id: CallID, _ held: Bool) throws(PhoneError) {
        let record = try record(id)
        let state = linphone_call_get_state(record.call)
        if held {
            record.resumeWhenPaused = false
            if state == LinphoneCallStatePaused || state == LinphoneCallStatePausing { return }
            guard state == LinphoneCallStateStreamsRunning else { throw .wrongState(id, "only an answered call can be put on hold") }
            guard linphone_call_pause(record.call) == 0 else { throw .wrongState(id, "liblinphone refused to put the call on hold") }
        } else {
            if state == LinphoneCallStateStreamsRunning || state == LinphoneCallStateResuming { return }
            if state == LinphoneCallStatePausing {
                record.resumeWhenPaused = true
                return
            }
            guard state == LinphoneCallStatePaused else { throw .wrongState(id, "the call is not on hold") }
            guard linphone_call_resume(record.call) == 0 else { throw .wrongState(id, "liblinphone refused to take the call off hold") }
            // The consultation's call took the video hub; the panel's picture comes back with it.
            videoHub.setCurrentCall(id)
        }
    }

    /// The call is paused: one taken off hold meanwhile is resumed now.
    func pausedNow(_ call: OpaquePointer) {
        guard let id = idsByCall[call], let record = calls[id], record.resumeWhenPaused else { return }
        record.resumeWhenPaused = false
        if linphone_call_resume(call) == 0 {
            videoHub.setCurrentCall(id)
        } else {
            logger.warning("call \(id): could not be taken off hold")
        }
    }

    /// Attended transfer: asks the caller of `id` (on hold) to call the other side of `other`
    /// (answered) in its place: a REFER whose Refer-To carries `Replaces` for `other`'s dialog,
    /// so the target's phone swaps our consultation for the caller. `transferred` reports the
    /// outcome as for a blind transfer; the target ends `other` itself once it is replaced.
    func transfer(_ id: CallID, toCallOf other: CallID) throws(PhoneError) {
        let record = try record(id)
        let consult = try self.record(other)
        let state = linphone_call_get_state(record.call)
        guard state == LinphoneCallStateStreamsRunning || state == LinphoneCallStatePaused else {
            throw .wrongState(id, "only an answered call can be transferred")
        }
        guard linphone_call_get_state(consult.call) == LinphoneCallStateStreamsRunning else {
            throw .wrongState(other, "the consultation has not been answered")
        }
        guard record.transferTarget == nil else { throw .wrongState(id, "a transfer of it is already under way") }
        guard linphone_call_transfer_to_another(record.call, consult.call) == 0 else {
            throw .wrongState(id, "liblinphone refused to send the transfer")
        }
        record.transferTarget = consult.info.to
    }

    /// The other side's NOTIFYs about the call it placed for our REFER. liblinphone ends our call
    /// by itself once that call connects (`[sip] terminate_call_upon_transfer_completion`, on).
    func transferStateChanged(_ call: OpaquePointer, state: LinphoneCallState) {
        guard let id = idsByCall[call], let record = calls[id], let target = record.transferTarget else { return }
        switch state {
        case LinphoneCallStateConnected, LinphoneCallStateStreamsRunning:
            guard !record.transferred else { return }
            record.transferred = true
            _ = Self.callID(call).flatMap(SIPTransferReports.shared.take(callID:))
            emit(.transferred(id, target: target, ok: true, detail: nil))
        case LinphoneCallStateError, LinphoneCallStateEnd:
            guard !record.transferred else { return }
            record.transferTarget = nil
            // The NOTIFY's sipfrag says why (liblinphone keeps only the state); without one, the
            // REFER itself was refused or the call's own error says it.
            let reported = Self.callID(call).flatMap(SIPTransferReports.shared.take(callID:)).map(SIPTransferReports.describe)
            emit(.transferred(id, target: target, ok: false,
                              detail: reported ?? Self.errorPhrase(call).map { "refused (\($0))" } ?? "refused: the other side did not take the transfer"))
        default:
            break
        }
    }
}
