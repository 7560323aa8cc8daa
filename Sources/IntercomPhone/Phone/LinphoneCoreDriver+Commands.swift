import CLinphone
import Foundation
import IntercomBase

/// What the rest of the program asks of a call or the core (through `Phone`).
extension LinphoneCoreDriver {

    func answer(_ id: CallID, video: Bool, recordTo: String?) throws(PhoneError) {
        let record = try record(id)
        let state = linphone_call_get_state(record.call)
        guard state == LinphoneCallStateIncomingReceived || state == LinphoneCallStateIncomingEarlyMedia else {
            throw .wrongState(id, "it is not ringing")
        }
        let params = linphone_core_create_call_params(core, record.call)
        defer { if let params { linphone_call_params_unref(params) } }
        if let params {
            linphone_call_params_enable_video(params, video && settings.video != .off ? 1 : 0)
            // The file's extension picks the recorder: `.mkv` keeps the video too, `.wav` audio only.
            if let recordTo { linphone_call_params_set_record_file(params, recordTo) }
        }
        record.recordFile = recordTo
        guard linphone_call_accept_with_params(record.call, params) == 0 else {
            throw .wrongState(id, "liblinphone refused to answer")
        }
        videoHub.setCurrentCall(id)
    }

    /// Starts the call's recording once its streams run (liblinphone records nothing before).
    func startRecordingIfAsked(_ record: CallRecord) {
        guard record.recordFile != nil, !record.recording else { return }
        record.recording = true
        linphone_call_start_recording(record.call)
        // The recorder creates the file with the process's umask: a recording is personal data.
        if let path = record.recordFile { chmod(path, 0o600) }
    }

    /// Closes the clip before the call's end is reported, so whoever reads it then finds it whole.
    func stopRecording(_ record: CallRecord) {
        guard record.recording else { return }
        record.recording = false
        linphone_call_stop_recording(record.call)
    }

    func decline(_ id: CallID, reason: LinphoneReason) throws(PhoneError) {
        let record = try record(id)
        let state = linphone_call_get_state(record.call)
        guard state == LinphoneCallStateIncomingReceived || state == LinphoneCallStateIncomingEarlyMedia else {
            throw .wrongState(id, "it is not ringing; hang up instead")
        }
        record.declined = true
        _ = linphone_call_decline(record.call, reason)
    }

    func hangup(_ id: CallID) throws(PhoneError) {
        let record = try record(id)
        record.endedLocally = true
        _ = linphone_call_terminate(record.call)
    }

    /// Ends a call its caller has left behind (it called again): reported as its hang-up.
    func replace(_ id: CallID) throws(PhoneError) {
        let record = try record(id)
        record.replaced = true
        _ = linphone_call_terminate(record.call)
    }

    func call(_ uri: String, video: Bool) throws(PhoneError) -> CallID {
        LinphoneThread.assertOnThread()
        guard let address = linphone_core_interpret_url(core, uri) else { throw .badURI(uri) }
        defer { linphone_address_unref(address) }
        let params = linphone_core_create_call_params(core, nil)
        defer { if let params { linphone_call_params_unref(params) } }
        if let params { linphone_call_params_enable_video(params, video && settings.video != .off ? 1 : 0) }
        guard let call = linphone_core_invite_address_with_params(core, address, params) else {
            throw .badURI(uri)
        }
        // The OutgoingInit callback already registered the call.
        if let id = idsByCall[call] {
            videoHub.setCurrentCall(id)
            return id
        }
        return track(call, direction: .outgoing).info.id
    }

    func sendDTMF(_ id: CallID, digits: String, timing: DTMFTiming) throws(PhoneError) {
        let record = try record(id)
        let allowed = Set("0123456789*#ABCD")
        let upper = digits.uppercased()
        guard !upper.isEmpty, upper.allSatisfy({ allowed.contains($0) }) else { throw .badDigits(digits) }
        guard linphone_call_get_state(record.call) == LinphoneCallStateStreamsRunning else {
            throw .wrongState(id, "DTMF needs an established call")
        }
        // The telephone-event clock matches the audio codec's: 8000 units a second for G.711.
        let rate = currentAudioClockRate(record.call) ?? 8000
        _ = intercom_call_set_dtmf_duration(record.call, Int32(timing.durationMs * rate / 1000))
        let wasIdle = record.dtmfQueue.isEmpty
        for round in 0..<max(1, timing.repeat) {
            if round > 0 { record.dtmfQueue.append("|") }
            record.dtmfQueue.append(contentsOf: upper)
        }
        if wasIdle { sendNextDigit(record, sent: upper, timing: timing) }
    }

    /// Sends one queued digit, then waits for its duration plus the gap before the next.
    func sendNextDigit(_ record: CallRecord, sent digits: String, timing: DTMFTiming) {
        guard !record.dtmfQueue.isEmpty, calls[record.info.id] === record else { return }
        // A call that is ending keeps its record until Released but has lost its audio stream, and
        // liblinphone 5.1 hands the digit to that NULL stream anyway (a crash in mediastreamer).
        // Hanging up in the middle of a repeated sequence gets here; the rest of it is dropped.
        let state = linphone_call_get_state(record.call)
        guard state != LinphoneCallStateEnd, state != LinphoneCallStateError, state != LinphoneCallStateReleased,
              linphone_call_get_stream(record.call, LinphoneStreamTypeAudio) != nil else {
            record.dtmfQueue.removeAll()
            return
        }
        let next = record.dtmfQueue.removeFirst()
        let pause = Double(timing.durationMs + timing.gapMs) / 1000
        if next != "|", let ascii = next.asciiValue {
            _ = linphone_call_send_dtmf(record.call, CChar(bitPattern: ascii))
        }
        if record.dtmfQueue.isEmpty {
            let id = record.info.id
            after(Double(timing.durationMs) / 1000) { [emit] in emit(.dtmfSent(id, digits: digits)) }
            return
        }
        // Within one round the digits follow after their duration; between rounds comes the gap.
        let delay = record.dtmfQueue.first == "|" || next == "|" ? pause : Double(timing.durationMs + 40) / 1000
        after(delay) { [weak self, weak record] in
            guard let self, let record else { return }
            self.sendNextDigit(record, sent: digits, timing: timing)
        }
    }

    func currentAudioClockRate(_ call: OpaquePointer) -> Int? {
        guard let params = linphone_call_get_current_params(call),
              let pt = linphone_call_params_get_used_audio_payload_type(params) else { return nil }
        let rate = Int(linphone_payload_type_get_clock_rate(pt))
        return rate > 0 ? rate : nil
    }

    func setMicrophoneMuted(_ id: CallID?, muted: Bool) throws(PhoneError) {
        LinphoneThread.assertOnThread()
        if let id {
            linphone_call_set_microphone_muted(try record(id).call, muted ? 1 : 0)
        } else {
            linphone_core_enable_mic(core, muted ? 0 : 1)
        }
    }

    func audioDevices() -> [AudioDevice] {
        LinphoneThread.assertOnThread()
        let list = linphone_core_get_extended_audio_devices(core)
        defer { bctbx_list_free_with_data(list) { linphone_audio_device_unref(OpaquePointer($0)) } }
        return BctbxList(list).map { device in
            AudioDevice(
                id: linphone_audio_device_get_id(device).map { String(cString: $0) } ?? "",
                name: linphone_audio_device_get_device_name(device).map { String(cString: $0) } ?? "",
                driver: linphone_audio_device_get_driver_name(device).map { String(cString: $0) } ?? "",
                canPlay: linphone_audio_device_has_capability(device, LinphoneAudioDeviceCapabilityPlay) != 0,
                canRecord: linphone_audio_device_has_capability(device, LinphoneAudioDeviceCapabilityRecord) != 0)
        }
    }

    func setOutputDevice(_ deviceID: String, call id: CallID?) throws(PhoneError) {
        LinphoneThread.assertOnThread()
        let list = linphone_core_get_extended_audio_devices(core)
        defer { bctbx_list_free_with_data(list) { linphone_audio_device_unref(OpaquePointer($0)) } }
        for device in BctbxList(list) where linphone_audio_device_get_id(device).map({ String(cString: $0) }) == deviceID {
            if let id {
                let call = try record(id).call
                linphone_call_set_output_audio_device(call, device)
                // liblinphone 5.1 only asks the writer to switch cards, which the PulseAudio and
                // ALSA writers ignore; replace the writer so the sound really moves (shim.h).
                switch intercom_call_move_playback(call, deviceID) {
                case 0, -1: break  // moved, or no sound running yet (the stream starts on the new card)
                default: throw .wrongState(id, "cannot play call audio on '\(deviceID)': list devices with 'intercom doctor'")
                }
            } else {
                linphone_core_set_output_audio_device(core, device)
            }
            return
        }
        throw .wrongState(id ?? CallID("-"), "no audio device '\(deviceID)': list them with 'intercom doctor'")
    }
}
