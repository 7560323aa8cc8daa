import CLinphone
import IntercomBase

/// Calls refused for capacity. With `max_calls` calls in the core, liblinphone 5.1 answers the
/// next INVITE 486 "Busy - too many calls" itself, before any call object exists: no call state
/// is reported, only a call log with status EarlyAborted (`call_log_updated`). That log is the
/// one trace of a door that rang, so it is turned into `PhoneEvent.refusedBusy` here, with the
/// INVITE's source address from the read hook's ledger (found by the log's Call-ID), so the
/// engine can tell a panel from a stranger exactly as for a call that rings.
extension LinphoneCoreDriver {
    func callLogUpdated(_ log: OpaquePointer) {
        guard linphone_call_log_get_dir(log) == LinphoneCallIncoming,
              linphone_call_log_get_status(log) == LinphoneCallEarlyAborted,
              let error = linphone_call_log_get_error_info(log),
              linphone_error_info_get_reason(error) == LinphoneReasonBusy else { return }
        let phrase = linphone_error_info_get_phrase(error).map { String(cString: $0) }
        let from = linphone_call_log_get_from_address(log)
        let fromURI = from.flatMap { Self.string(linphone_address_as_string_uri_only($0)) } ?? ""
        let toURI = linphone_call_log_get_to_address(log).flatMap { Self.string(linphone_address_as_string_uri_only($0)) } ?? ""
        let callID = linphone_call_log_get_call_id(log).map { String(cString: $0) }
        nextCallNumber += 1
        let info = CallInfo(
            id: CallID("c\(nextCallNumber)"), direction: .incoming, from: fromURI, to: toURI,
            remoteHost: from.flatMap { linphone_address_get_domain($0) }.map { String(cString: $0) },
            source: callID.flatMap(SIPSourceLedger.shared.takeSource(callID:)), offersVideo: false, sipCallID: callID)
        logger.info("call from \(fromURI) refused with 486 (\(phrase ?? "busy")): the phone holds \(calls.count) calls, [sip] max_calls is \(settings.maxCalls)")
        emit(.refusedBusy(info, detail: phrase))
        // The log went into the core's history like any ended call's; dropped on the next turn,
        // outside liblinphone's own loop over its callbacks (see +CallLogs).
        after(0) { [weak self] in self?.forgetCallLogs() }
    }
}
