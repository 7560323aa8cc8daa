import CLinphone
import Foundation
import IntercomBase

/// Blind transfer (REFER): the concierge passes a panel's call on to a flat.
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
