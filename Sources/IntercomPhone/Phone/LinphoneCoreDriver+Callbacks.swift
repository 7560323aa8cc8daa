import CLinphone
import Foundation
import IntercomBase

/// What liblinphone reports, inside `linphone_core_iterate`: call states, DTMF, registration.
extension LinphoneCoreDriver {
    func installCallbacks() {
        linphone_core_set_user_data(core, Unmanaged.passUnretained(self).toOpaque())
        linphone_core_cbs_set_call_state_changed(callbacks) { core, call, state, message in
            guard let driver = LinphoneCoreDriver.from(core), let call else { return }
            driver.callStateChanged(call, state: state, message: message.map { String(cString: $0) })
        }
        linphone_core_cbs_set_dtmf_received(callbacks) { core, call, dtmf in
            guard let driver = LinphoneCoreDriver.from(core), let call else { return }
            driver.dtmfReceived(call, code: dtmf)
        }
        linphone_core_cbs_set_transfer_state_changed(callbacks) { core, call, state in
            guard let driver = LinphoneCoreDriver.from(core), let call else { return }
            driver.transferStateChanged(call, state: state)
        }
        linphone_core_cbs_set_call_log_updated(callbacks) { core, log in
            guard let driver = LinphoneCoreDriver.from(core), let log else { return }
            driver.callLogUpdated(log)
        }
        linphone_core_cbs_set_account_registration_state_changed(callbacks) { core, account, state, message in
            guard let driver = LinphoneCoreDriver.from(core), let account else { return }
            driver.registrationChanged(account, state: state, message: message.map { String(cString: $0) })
        }
        linphone_core_add_callbacks(core, callbacks)
    }

    static func from(_ core: OpaquePointer?) -> LinphoneCoreDriver? {
        LinphoneThread.assertOnThread()
        guard let core, let user = linphone_core_get_user_data(core) else { return nil }
        return Unmanaged<LinphoneCoreDriver>.fromOpaque(user).takeUnretainedValue()
    }

    @discardableResult
    func track(_ call: OpaquePointer, direction: CallDirection) -> CallRecord {
        if let id = idsByCall[call], let record = calls[id] { return record }
        nextCallNumber += 1
        let id = CallID("c\(nextCallNumber)")
        linphone_call_ref(call)
        let remote = linphone_call_get_remote_address(call)
        let remoteURI = remote.flatMap { Self.string(linphone_address_as_string_uri_only($0)) } ?? ""
        let toURI = linphone_call_get_to_address(call).flatMap { Self.string(linphone_address_as_string_uri_only($0)) } ?? ""
        let contactHost = linphone_call_get_remote_contact(call).flatMap { SIPURI(parsing: String(cString: $0))?.host }
        let remoteHost = contactHost ?? remote.flatMap { linphone_address_get_domain($0) }.map { String(cString: $0) }
        let offersVideo = linphone_call_get_remote_params(call).map { linphone_call_params_video_enabled($0) != 0 } ?? false
        let from = direction == .incoming ? remoteURI : toURI
        let to = direction == .incoming ? toURI : remoteURI
        var source: String?
        var sipCallID: String?
        if direction == .incoming {
            // Where the INVITE came from, as the read hook saw it: the one fact about a caller
            // that is not the caller's own words.
            let callID = linphone_call_get_call_log(call).flatMap { linphone_call_log_get_call_id($0) }.map { String(cString: $0) }
            source = callID.flatMap(SIPSourceLedger.shared.takeSource(callID:))
            sipCallID = callID
            watchForACK(call)
        }
        let record = CallRecord(call: call, info: CallInfo(
            id: id, direction: direction, from: from, to: to, remoteHost: remoteHost, source: source,
            offersVideo: offersVideo, sipCallID: sipCallID))
        calls[id] = record
        idsByCall[call] = id
        return record
    }

    /// Our 200 OK may reach someone other than the caller (a forged source address); only the
    /// real caller can answer it with an ACK that belongs to the dialog.
    func watchForACK(_ call: OpaquePointer) {
        guard let callbacks = linphone_factory_create_call_cbs(linphone_factory_get()) else { return }
        linphone_call_cbs_set_ack_processing(callbacks) { call, _, received in
            guard received != 0, let call, let driver = LinphoneCoreDriver.from(linphone_call_get_core(call)),
                  let id = driver.idsByCall[call], let record = driver.calls[id] else { return }
            record.ackReceived = true
            driver.confirmWhenMediaFlows(record)
        }
        linphone_call_add_callbacks(call, callbacks)
        linphone_call_cbs_unref(callbacks)
    }

    /// Reports `confirmed` once the call is established, its ACK is in and the caller's RTP has
    /// arrived; looks again every 50 ms until then or until the call ends.
    func confirmWhenMediaFlows(_ record: CallRecord) {
        guard record.info.direction == .incoming, record.ackReceived, record.reportedEstablished,
              !record.reportedConfirmed, !record.reportedEnd, calls[record.info.id] === record else { return }
        guard intercom_call_rtp_packets_received(record.call) > 0 else {
            after(0.05) { [weak self, weak record] in
                guard let self, let record else { return }
                self.confirmWhenMediaFlows(record)
            }
            return
        }
        record.reportedConfirmed = true
        emit(.confirmed(record.info.id))
    }

    func callStateChanged(_ call: OpaquePointer, state: LinphoneCallState, message: String?) {
        switch state {
        case LinphoneCallStateIncomingReceived:
            let record = track(call, direction: .incoming)
            emit(.incoming(record.info))
        case LinphoneCallStateOutgoingInit:
            let record = track(call, direction: .outgoing)
            emit(.outgoing(record.info))
        case LinphoneCallStateOutgoingRinging, LinphoneCallStateOutgoingEarlyMedia:
            if let id = idsByCall[call] { emit(.ringing(id)) }
        case LinphoneCallStateConnected:
            if let id = idsByCall[call], let record = calls[id], record.connectedAt == nil {
                record.connectedAt = Date()
            }
        case LinphoneCallStateStreamsRunning:
            guard let id = idsByCall[call], let record = calls[id], !record.reportedEstablished else { return }
            record.reportedEstablished = true
            if record.connectedAt == nil { record.connectedAt = Date() }
            videoHub.setCurrentCall(id)
            startRecordingIfAsked(record)
            emit(.established(id, media(of: call)))
            confirmWhenMediaFlows(record)
        case LinphoneCallStateEnd, LinphoneCallStateError:
            guard let id = idsByCall[call], let record = calls[id], !record.reportedEnd else { return }
            record.reportedEnd = true
            stopRecording(record)
            let reason = record.endReason(errorState: state == LinphoneCallStateError,
                                          linphoneReason: linphone_call_get_reason(call),
                                          answeredElsewhere: Self.answeredElsewhere(call))
            let duration = record.connectedAt.map { Date().timeIntervalSince($0) } ?? 0
            // "Call terminated" says nothing; the error info says why ("Media lost", a SIP status).
            let why = reason == .error ? Self.errorPhrase(call).map { "\($0) (\(message ?? "ended"))" } : nil
            emit(.ended(id, reason: reason, duration: duration, detail: why ?? message))
        case LinphoneCallStatePaused:
            pausedNow(call)
        case LinphoneCallStateReleased:
            forgetCallLogs()
            guard let id = idsByCall.removeValue(forKey: call) else { return }
            if let record = calls.removeValue(forKey: id) {
                if !record.reportedEnd {
                    emit(.ended(id, reason: record.endReason(errorState: true, linphoneReason: LinphoneReasonUnknown),
                                duration: 0, detail: message))
                }
                linphone_call_unref(record.call)
            }
            if calls.isEmpty {
                videoHub.setCurrentCall(nil)
                // The quiet moment after the last call: what it freed goes back to the kernel.
                FreedMemory.giveBack()
            }
        default:
            break
        }
    }

    func media(of call: OpaquePointer) -> CallMedia {
        guard let params = linphone_call_get_current_params(call) else { return CallMedia(audioCodec: nil, videoCodec: nil) }
        func describe(_ pt: OpaquePointer?) -> String? {
            guard let pt, let mime = linphone_payload_type_get_mime_type(pt) else { return nil }
            return "\(String(cString: mime))/\(linphone_payload_type_get_clock_rate(pt))"
        }
        let video = linphone_call_params_video_enabled(params) != 0
            ? describe(linphone_call_params_get_used_video_payload_type(params)) : nil
        let encryption: String
        switch linphone_call_params_get_media_encryption(params) {
        case LinphoneMediaEncryptionNone: encryption = "none"
        case LinphoneMediaEncryptionSRTP: encryption = "srtp"
        case LinphoneMediaEncryptionZRTP: encryption = "zrtp"
        case LinphoneMediaEncryptionDTLS: encryption = "dtls"
        default: encryption = "unknown"
        }
        return CallMedia(audioCodec: describe(linphone_call_params_get_used_audio_payload_type(params)), videoCodec: video,
                         encryption: encryption)
    }

    func dtmfReceived(_ call: OpaquePointer, code: Int32) {
        guard let id = idsByCall[call], let scalar = Unicode.Scalar(UInt32(max(0, code))) else { return }
        emit(.dtmfReceived(id, Character(scalar)))
    }

    func registrationChanged(_ account: OpaquePointer, state: LinphoneRegistrationState, message: String?) {
        let identity = linphone_account_get_params(account)
            .flatMap { linphone_account_params_get_identity_address($0) }
            .flatMap { Self.string(linphone_address_as_string_uri_only($0)) } ?? ""
        let mapped: RegistrationState
        switch state {
        case LinphoneRegistrationProgress: mapped = .progress
        case LinphoneRegistrationOk: mapped = .registered
        case LinphoneRegistrationCleared: mapped = .cleared
        case LinphoneRegistrationFailed: mapped = .failed
        case LinphoneRegistrationNone: return
        default:
            logger.warning("unknown registration state \(state.rawValue) from liblinphone")
            return
        }
        emit(.registration(account: identity, state: mapped, reason: message))
    }
}
