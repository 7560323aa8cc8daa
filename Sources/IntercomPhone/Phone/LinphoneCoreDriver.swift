import CFrameSink
import CLinphone
import Foundation

/// Owns one liblinphone core. Lives on the phone thread: every method, and every liblinphone
/// callback that reaches it, runs there, and the entry points assert it
/// (`LinphoneThread.assertOnThread`). Nothing in here is Sendable on purpose.
final class LinphoneCoreDriver {
    let core: OpaquePointer
    private let callbacks: OpaquePointer
    private let settings: PhoneSettings
    private let emit: (PhoneEvent) -> Void
    private let videoHub: VideoFrameHub
    private let logger: Logger
    private var frameSink: OpaquePointer?
    private var calls: [CallID: CallRecord] = [:]
    private var idsByCall: [OpaquePointer: CallID] = [:]
    private var nextCallNumber = 0
    private var timers: [(deadline: Date, action: () -> Void)] = []
    private(set) var boundAddresses: [ListenAddress] = []
    /// Our SIP sockets (UDP, TCP listeners), watched by the linphone thread.
    private(set) var sipDescriptors: [Int32] = []
    /// Drops UDP SIP messages liblinphone cannot survive before belle-sip reads them.
    private var datagramGuard: SIPDatagramGuard?

    var hasCalls: Bool { !calls.isEmpty }

    init(settings: PhoneSettings, videoHub: VideoFrameHub, logger: Logger,
         emit: @escaping (PhoneEvent) -> Void) throws(PhoneError) {
        LinphoneThread.assertOnThread()
        self.settings = settings
        self.logger = logger
        self.emit = emit
        self.videoHub = videoHub
        try Self.checkListenAddresses(settings.listen)

        let factory = linphone_factory_get()
        // Creating and destroying cores initialises process-wide C state (libsrtp, the factory);
        // two threads doing it at once abort in mediastreamer. The lock is in LinphoneProcess.
        LinphoneProcess.lock.lock()
        defer { LinphoneProcess.lock.unlock() }
        guard let core = linphone_factory_create_core_3(factory, nil, nil, nil) else {
            throw .coreStartFailed(code: -1)
        }
        guard let callbacks = linphone_factory_create_core_cbs(factory) else {
            linphone_core_unref(core)
            throw .coreStartFailed(code: -1)
        }
        self.core = core
        self.callbacks = callbacks
        configure()
        installCallbacks()
        do {
            try configureSecurity()
        } catch {
            LinphoneProcess.lock.unlock()
            teardown()
            LinphoneProcess.lock.lock()
            throw error
        }
        let status = linphone_core_start(core)
        guard status == 0 else {
            LinphoneProcess.lock.unlock()
            teardown()
            LinphoneProcess.lock.lock()
            throw .coreStartFailed(code: status)
        }
        // The TLS listening point may only exist now; the trust settings are applied to it again.
        applyTLSTrust()
        try readBackTransports()
        sipDescriptors = SocketInventory.descriptors(for: boundAddresses)
        datagramGuard = SIPDatagramGuard(
            udpDescriptors: SocketInventory.descriptors(for: boundAddresses.filter { $0.transport == .udp }),
            gate: settings.callerGate, logger: logger)
        if let account = settings.account { try addAccount(account) }
    }

    // MARK: - Set-up

    /// liblinphone binds one host for all transports and one port per transport.
    private static func checkListenAddresses(_ listen: [ListenAddress]) throws(PhoneError) {
        guard let first = listen.first else {
            throw .badListenAddress("(none)", reason: "no address given")
        }
        for address in listen {
            if address.host != first.host {
                throw .badListenAddress(address.description, reason: "all addresses must share one host (\(first.host))")
            }
            if listen.filter({ $0.transport == address.transport }).count > 1 {
                throw .badListenAddress(address.description, reason: "one address per transport")
            }
            guard address.transport != .tls else {
                // belle-sip 5.1 accepts TLS connections and closes them unread; see ConfigDecoder.
                throw .badListenAddress(address.description, reason: "liblinphone cannot take incoming SIP over TLS")
            }
            guard (0...65535).contains(address.port) else {
                throw .badListenAddress(address.description, reason: "port out of range")
            }
            switch SocketProbe.canBind(address) {
            case .ok: break
            case .inUse: throw .portInUse(address)
            case .failed(let reason): throw .badListenAddress(address.description, reason: reason)
            }
        }
    }

    private func configure() {
        let config = linphone_core_get_config(core)
        let dir = settings.dataDirectory
        linphone_config_set_string(config, "storage", "uri", "\(dir)/linphone.db")
        linphone_config_set_int(config, "sip", "auto_net_state_mon", 0)
        linphone_config_set_int(config, "sip", "ipv6_migration_done", 1)
        let host = settings.listen.first?.host ?? "127.0.0.1"
        let anyHost = host == "0.0.0.0" || host == "::"
        if !anyHost { linphone_config_set_string(config, "sip", "bind_address", host) }
        linphone_core_set_call_logs_database_path(core, "\(dir)/call-history.db")
        linphone_core_set_zrtp_secrets_file(core, "\(dir)/zrtp-secrets.db")
        linphone_core_set_user_certificates_path(core, dir)
        linphone_core_enable_ipv6(core, host.contains(":") ? 1 : 0)
        let contactHost = anyHost ? "127.0.0.1" : (host.contains(":") ? "[\(host)]" : host)
        let display = settings.displayName.map { "\"\($0)\" " } ?? ""
        linphone_core_set_primary_contact(core, "\(display)<sip:\(settings.user)@\(contactHost)>")
        // Bound to one address, From (direct calls) names that address instead of a guessed
        // "local IP", which on a host without a default route is a placeholder like 192.0.2.2.
        if !anyHost { linphone_core_set_guess_hostname(core, 0) }
        linphone_core_set_user_agent(core, "intercom", IntercomVersion.string)

        let factory = linphone_factory_get()
        if let transports = linphone_factory_create_transports(factory) {
            var wanted = settings.listen
            // A registrar reached over a transport we do not listen on still needs a socket of
            // that kind: liblinphone has no client-only transports, so one listens on a free port.
            if let proxyTransport = Self.proxyTransport(settings.account),
               !wanted.contains(where: { $0.transport == proxyTransport }) {
                wanted.append(ListenAddress(transport: proxyTransport, host: host, port: 0))
            }
            for address in wanted {
                // liblinphone: -1 picks a random port, 0 disables the transport, -2 (DONTBIND) makes
                // it client-only. TLS is always client-only: belle-sip would drop incoming connections.
                let port = address.transport == .tls ? Int32(-2) : Int32(address.port == 0 ? -1 : address.port)
                switch address.transport {
                case .udp: linphone_transports_set_udp_port(transports, port)
                case .tcp: linphone_transports_set_tcp_port(transports, port)
                case .tls: linphone_transports_set_tls_port(transports, port)
                }
            }
            linphone_core_set_transports(core, transports)
            linphone_transports_unref(transports)
        }
        linphone_core_set_audio_port(core, -1)
        linphone_core_set_video_port(core, -1)

        linphone_core_set_ring(core, settings.ringtone)
        linphone_core_set_ringback(core, nil)
        linphone_core_set_native_ringing_enabled(core, 0)
        linphone_core_set_ring_during_incoming_early_media(core, 0)
        linphone_core_set_inc_timeout(core, Int32(settings.incomingTimeoutSeconds))
        // A caller that vanishes (power cut, cable pulled) never sends BYE; only silence on RTP shows it.
        linphone_core_set_nortp_timeout(core, Int32(settings.noRTPTimeoutSeconds))
        linphone_core_set_use_rfc2833_for_dtmf(core, 1)
        linphone_core_set_use_info_for_dtmf(core, 0)
        linphone_core_enable_echo_cancellation(core, 0)

        switch settings.audio {
        case .files(let play, let record):
            linphone_core_set_use_files(core, 1)
            linphone_core_set_play_file(core, play)
            linphone_core_set_record_file(core, record)
        case .devices(let playback, let capture):
            linphone_core_set_use_files(core, 0)
            if let playback { _ = linphone_core_set_playback_device(core, playback) }
            if let capture { _ = linphone_core_set_capture_device(core, capture) }
        }

        configureVideo()
        configureCodecs()
    }

    /// SIP over TLS (trust, our client certificate) and SRTP for the media.
    private func configureSecurity() throws(PhoneError) {
        applyTLSTrust()
        let tls = settings.tls
        if let certificate = tls.certificate, let key = tls.key {
            // Offered when a TLS registrar asks for a client certificate.
            linphone_core_set_tls_cert_path(core, certificate)
            linphone_core_set_tls_key_path(core, key)
        }
        switch settings.mediaEncryption {
        case .none:
            _ = linphone_core_set_media_encryption(core, LinphoneMediaEncryptionNone)
            linphone_core_set_media_encryption_mandatory(core, 0)
        case .srtp, .srtpMandatory:
            guard linphone_core_media_encryption_supported(core, LinphoneMediaEncryptionSRTP) != 0,
                  linphone_core_set_media_encryption(core, LinphoneMediaEncryptionSRTP) == 0 else {
                throw .unsupported("SRTP is not available in this liblinphone; set [sip] media_encryption = none")
            }
            linphone_core_set_media_encryption_mandatory(core, settings.mediaEncryption == .srtpMandatory ? 1 : 0)
        }
    }

    /// Whom a TLS registrar must prove to be: verified against `tls_ca` (else the system store)
    /// unless `tls_verify = off`.
    private func applyTLSTrust() {
        let tls = settings.tls
        let authorities = tls.caFile
            ?? (FileManager.default.fileExists(atPath: SIPTLSSettings.systemCAFile) ? SIPTLSSettings.systemCAFile : nil)
        if let authorities { linphone_core_set_root_ca(core, authorities) }
        linphone_core_verify_server_certificates(core, tls.verify ? 1 : 0)
        linphone_core_verify_server_cn(core, tls.verify ? 1 : 0)
    }

    private func configureVideo() {
        let factory = linphone_factory_get()
        if let policy = linphone_factory_create_video_activation_policy(factory) {
            let on: bool_t = settings.video == .off ? 0 : 1
            linphone_video_activation_policy_set_automatically_accept(policy, on)
            linphone_video_activation_policy_set_automatically_initiate(policy, on)
            linphone_core_set_video_activation_policy(core, policy)
            linphone_video_activation_policy_unref(policy)
        }
        linphone_core_enable_self_view(core, 0)
        linphone_core_set_preferred_video_definition_by_name(core, "vga")
        switch settings.video {
        case .off:
            linphone_core_enable_video_capture(core, 0)
            linphone_core_enable_video_display(core, 0)
            return
        case .receive:
            linphone_core_enable_video_capture(core, 0)
        case .sendPicture(let path, let fps):
            linphone_core_enable_video_capture(core, 1)
            _ = linphone_core_set_static_picture(core, path)
            _ = linphone_core_set_static_picture_fps(core, Float(fps))
            _ = linphone_core_set_video_device(core, "StaticImage: Static picture")
        case .sendTestPattern:
            linphone_core_enable_video_capture(core, 1)
            // The "Mire" camera only exists when the process environment has DEBUG=1.
            _ = linphone_core_set_video_device(core, "Mire: Mire (synthetic moving picture)")
        }
        linphone_core_enable_video_display(core, 1)
        let user = Unmanaged.passUnretained(videoHub).toOpaque()
        frameSink = intercom_frame_sink_register(intercom_core_ms_factory(core), { user, w, h, y, ys, u, us, v, vs in
            guard let user, let y, let u, let v else { return }
            let hub = Unmanaged<VideoFrameHub>.fromOpaque(user).takeUnretainedValue()
            hub.publish(width: Int(w), height: Int(h), y: y, yStride: Int(ys), u: u, uStride: Int(us), v: v, vStride: Int(vs))
        }, user)
        linphone_core_set_video_display_filter(core, INTERCOM_FRAME_SINK_NAME)
    }

    private func configureCodecs() {
        if let wanted = settings.audioCodecs {
            reorder(linphone_core_get_audio_payload_types(core), wanted: wanted) {
                linphone_core_set_audio_payload_types(core, $0)
            }
        }
        if let wanted = settings.videoCodecs {
            reorder(linphone_core_get_video_payload_types(core), wanted: wanted) {
                linphone_core_set_video_payload_types(core, $0)
            }
        }
    }

    /// Enables exactly the wanted payload types, in the wanted order; liblinphone keeps the rest disabled.
    private func reorder(_ list: UnsafeMutablePointer<bctbx_list_t>?, wanted: [String],
                         apply: (UnsafeMutablePointer<bctbx_list_t>?) -> Void) {
        let available = BctbxList(list).map { pt in
            (name: linphone_payload_type_get_mime_type(pt).map { String(cString: $0) } ?? "", pointer: pt)
        }
        var ordered: UnsafeMutablePointer<bctbx_list_t>? = nil
        let missing = wanted.filter { $0 != "opus" }.filter { name in !available.contains { $0.name.caseInsensitiveCompare(name) == .orderedSame } }
        if !missing.isEmpty {
            // A missing H.264 plugin makes panel calls go audio-only without any error from liblinphone.
            logger.warning("codecs not available in this liblinphone: \(missing.joined(separator: ", ")) (H264 needs the package mediastreamer2-plugin-openh264)")
        }
        for name in wanted {
            for entry in available where entry.name.caseInsensitiveCompare(name) == .orderedSame {
                _ = linphone_payload_type_enable(entry.pointer, 1)
                ordered = bctbx_list_append(ordered, UnsafeMutableRawPointer(entry.pointer))
            }
        }
        for entry in available where !wanted.contains(where: { $0.caseInsensitiveCompare(entry.name) == .orderedSame }) {
            // telephone-event carries RFC 2833 DTMF, which opens doors: never switch it off.
            _ = linphone_payload_type_enable(entry.pointer, entry.name == "telephone-event" ? 1 : 0)
            ordered = bctbx_list_append(ordered, UnsafeMutableRawPointer(entry.pointer))
        }
        apply(ordered)
        bctbx_list_free(ordered)
        bctbx_list_free(list)
    }

    /// The transport named in the account's proxy (`;transport=tcp`), or the identity's scheme.
    static func proxyTransport(_ account: SIPAccount?) -> SIPTransport? {
        guard let account else { return nil }
        let text = (account.proxy ?? account.identity).lowercased()
        if let range = text.range(of: "transport=") {
            let value = text[range.upperBound...].prefix { $0.isLetter }
            return SIPTransport(rawValue: String(value))
        }
        return text.hasPrefix("sips:") ? .tls : nil
    }

    private func readBackTransports() throws(PhoneError) {
        guard let used = linphone_core_get_transports_used(core) else { return }
        defer { linphone_transports_unref(used) }
        var bound: [ListenAddress] = []
        for address in settings.listen {
            let port: Int32
            switch address.transport {
            case .udp: port = linphone_transports_get_udp_port(used)
            case .tcp: port = linphone_transports_get_tcp_port(used)
            case .tls: port = linphone_transports_get_tls_port(used)
            }
            guard port > 0 else { throw .portInUse(address) }
            bound.append(ListenAddress(transport: address.transport, host: address.host, port: Int(port)))
        }
        boundAddresses = bound
    }

    private func addAccount(_ account: SIPAccount) throws(PhoneError) {
        let factory = linphone_factory_get()
        guard let identity = linphone_factory_create_address(factory, account.identity) else {
            throw .badURI(account.identity)
        }
        defer { linphone_address_unref(identity) }
        guard let params = linphone_core_create_account_params(core) else { throw .coreStartFailed(code: -1) }
        defer { linphone_account_params_unref(params) }
        _ = linphone_account_params_set_identity_address(params, identity)
        let serverText = account.proxy ?? "sip:\(String(cString: linphone_address_get_domain(identity)))"
        guard let server = linphone_factory_create_address(factory, serverText) else { throw .badURI(serverText) }
        defer { linphone_address_unref(server) }
        _ = linphone_account_params_set_server_address(params, server)
        linphone_account_params_set_outbound_proxy_enabled(params, 1)
        linphone_account_params_set_register_enabled(params, 1)
        linphone_account_params_set_expires(params, Int32(account.expiresSeconds))
        if let password = account.password {
            let user = linphone_address_get_username(identity).map { String(cString: $0) }
            let domain = linphone_address_get_domain(identity).map { String(cString: $0) }
            if let info = linphone_factory_create_auth_info(factory, user, nil, password, nil, nil, domain) {
                linphone_core_add_auth_info(core, info)
                linphone_auth_info_unref(info)
            }
        }
        guard let created = linphone_core_create_account(core, params) else { throw .coreStartFailed(code: -1) }
        _ = linphone_core_add_account(core, created)
        linphone_core_set_default_account(core, created)
        linphone_account_unref(created)
    }

    private func installCallbacks() {
        linphone_core_set_user_data(core, Unmanaged.passUnretained(self).toOpaque())
        linphone_core_cbs_set_call_state_changed(callbacks) { core, call, state, message in
            guard let driver = LinphoneCoreDriver.from(core), let call else { return }
            driver.callStateChanged(call, state: state, message: message.map { String(cString: $0) })
        }
        linphone_core_cbs_set_dtmf_received(callbacks) { core, call, dtmf in
            guard let driver = LinphoneCoreDriver.from(core), let call else { return }
            driver.dtmfReceived(call, code: dtmf)
        }
        linphone_core_cbs_set_account_registration_state_changed(callbacks) { core, account, state, message in
            guard let driver = LinphoneCoreDriver.from(core), let account else { return }
            driver.registrationChanged(account, state: state, message: message.map { String(cString: $0) })
        }
        linphone_core_add_callbacks(core, callbacks)
    }

    private static func from(_ core: OpaquePointer?) -> LinphoneCoreDriver? {
        LinphoneThread.assertOnThread()
        guard let core, let user = linphone_core_get_user_data(core) else { return nil }
        return Unmanaged<LinphoneCoreDriver>.fromOpaque(user).takeUnretainedValue()
    }

    // MARK: - Loop

    /// One turn of the phone thread: liblinphone's work, then our due timers.
    func iterate() {
        LinphoneThread.assertOnThread()
        datagramGuard?.screen()
        linphone_core_iterate(core)
        guard !timers.isEmpty else { return }
        let now = Date()
        let due = timers.filter { $0.deadline <= now }
        timers.removeAll { $0.deadline <= now }
        for timer in due { timer.action() }
    }

    func after(_ seconds: Double, _ action: @escaping () -> Void) {
        LinphoneThread.assertOnThread()
        timers.append((Date().addingTimeInterval(seconds), action))
    }

    /// Ends every call; the loop keeps iterating until they are released.
    func terminateAll() {
        LinphoneThread.assertOnThread()
        for record in calls.values {
            record.endedLocally = true
            _ = linphone_call_terminate(record.call)
        }
    }

    func teardown() {
        LinphoneThread.assertOnThread()
        LinphoneProcess.lock.lock()
        defer { LinphoneProcess.lock.unlock() }
        linphone_core_stop(core)
        linphone_core_remove_callbacks(core, callbacks)
        linphone_core_cbs_unref(callbacks)
        linphone_core_set_user_data(core, nil)
        for record in calls.values { linphone_call_unref(record.call) }
        calls.removeAll()
        idsByCall.removeAll()
        linphone_core_unref(core)
        if let frameSink { intercom_frame_sink_free(frameSink) }
        frameSink = nil
    }

    // MARK: - Commands

    private func record(_ id: CallID) throws(PhoneError) -> CallRecord {
        LinphoneThread.assertOnThread()
        guard let record = calls[id] else { throw .noSuchCall(id) }
        return record
    }

    func answer(_ id: CallID, video: Bool) throws(PhoneError) {
        let record = try record(id)
        let state = linphone_call_get_state(record.call)
        guard state == LinphoneCallStateIncomingReceived || state == LinphoneCallStateIncomingEarlyMedia else {
            throw .wrongState(id, "it is not ringing")
        }
        let params = linphone_core_create_call_params(core, record.call)
        defer { if let params { linphone_call_params_unref(params) } }
        if let params {
            linphone_call_params_enable_video(params, video && settings.video != .off ? 1 : 0)
        }
        guard linphone_call_accept_with_params(record.call, params) == 0 else {
            throw .wrongState(id, "liblinphone refused to answer")
        }
        videoHub.setCurrentCall(id)
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
    private func sendNextDigit(_ record: CallRecord, sent digits: String, timing: DTMFTiming) {
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

    private func currentAudioClockRate(_ call: OpaquePointer) -> Int? {
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
                linphone_call_set_output_audio_device(try record(id).call, device)
            } else {
                linphone_core_set_output_audio_device(core, device)
            }
            return
        }
        throw .wrongState(id ?? CallID("-"), "no audio device '\(deviceID)': list them with 'intercom doctor'")
    }

    // MARK: - Callbacks (inside linphone_core_iterate)

    @discardableResult
    private func track(_ call: OpaquePointer, direction: CallDirection) -> CallRecord {
        if let id = idsByCall[call], let record = calls[id] { return record }
        nextCallNumber += 1
        let id = CallID("c\(nextCallNumber)")
        linphone_call_ref(call)
        let remote = linphone_call_get_remote_address(call)
        let remoteURI = remote.flatMap { Self.string(linphone_address_as_string_uri_only($0)) } ?? ""
        let toURI = linphone_call_get_to_address(call).flatMap { Self.string(linphone_address_as_string_uri_only($0)) } ?? ""
        let contactHost = linphone_call_get_remote_contact(call).flatMap { Self.host(ofURI: String(cString: $0)) }
        let remoteHost = contactHost ?? remote.flatMap { linphone_address_get_domain($0) }.map { String(cString: $0) }
        let offersVideo = linphone_call_get_remote_params(call).map { linphone_call_params_video_enabled($0) != 0 } ?? false
        let from = direction == .incoming ? remoteURI : toURI
        let to = direction == .incoming ? toURI : remoteURI
        var source: String?
        if direction == .incoming {
            // Where the INVITE came from, as the read hook saw it: the one fact about a caller
            // that is not the caller's own words.
            let callID = linphone_call_get_call_log(call).flatMap { linphone_call_log_get_call_id($0) }.map { String(cString: $0) }
            source = callID.flatMap(SIPSourceLedger.shared.takeSource(callID:))
            watchForACK(call)
        }
        let record = CallRecord(call: call, info: CallInfo(
            id: id, direction: direction, from: from, to: to, remoteHost: remoteHost, source: source,
            offersVideo: offersVideo))
        calls[id] = record
        idsByCall[call] = id
        return record
    }

    /// Our 200 OK may reach someone other than the caller (a forged source address); only the
    /// real caller can answer it with an ACK that belongs to the dialog.
    private func watchForACK(_ call: OpaquePointer) {
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
    private func confirmWhenMediaFlows(_ record: CallRecord) {
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

    private func callStateChanged(_ call: OpaquePointer, state: LinphoneCallState, message: String?) {
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
            emit(.established(id, media(of: call)))
            confirmWhenMediaFlows(record)
        case LinphoneCallStateEnd, LinphoneCallStateError:
            guard let id = idsByCall[call], let record = calls[id], !record.reportedEnd else { return }
            record.reportedEnd = true
            let reason = record.endReason(errorState: state == LinphoneCallStateError,
                                          linphoneReason: linphone_call_get_reason(call))
            let duration = record.connectedAt.map { Date().timeIntervalSince($0) } ?? 0
            // "Call terminated" says nothing; the error info says why ("Media lost", a SIP status).
            let why = reason == .error ? Self.errorPhrase(call).map { "\($0) (\(message ?? "ended"))" } : nil
            emit(.ended(id, reason: reason, duration: duration, detail: why ?? message))
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

    private func media(of call: OpaquePointer) -> CallMedia {
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

    private func dtmfReceived(_ call: OpaquePointer, code: Int32) {
        guard let id = idsByCall[call], let scalar = Unicode.Scalar(UInt32(max(0, code))) else { return }
        emit(.dtmfReceived(id, Character(scalar)))
    }

    private func registrationChanged(_ account: OpaquePointer, state: LinphoneRegistrationState, message: String?) {
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

    // MARK: - Helpers

    /// liblinphone's own words for a failure, e.g. "Media lost" (503) after the RTP timeout.
    private static func errorPhrase(_ call: OpaquePointer) -> String? {
        guard let info = linphone_call_get_error_info(call),
              let phrase = linphone_error_info_get_phrase(info).map({ String(cString: $0) }), !phrase.isEmpty
        else { return nil }
        let code = linphone_error_info_get_protocol_code(info)
        return code > 0 ? "\(phrase), \(code)" : phrase
    }

    /// Takes ownership of a string liblinphone allocated for us.
    private static func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { bctbx_free(pointer) }
        return String(cString: pointer)
    }

    /// `sip:user@host:port;params` or `<sip:…>` → host.
    static func host(ofURI uri: String) -> String? {
        var text = Substring(uri)
        if let open = text.firstIndex(of: "<"), let close = text.lastIndex(of: ">"), open < close {
            text = text[text.index(after: open)..<close]
        }
        if let at = text.lastIndex(of: "@") { text = text[text.index(after: at)...] }
        else if let colon = text.firstIndex(of: ":") { text = text[text.index(after: colon)...] }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            return String(text[text.index(after: text.startIndex)..<close])
        }
        let end = text.firstIndex { $0 == ":" || $0 == ";" || $0 == ">" || $0 == "?" } ?? text.endIndex
        let host = String(text[..<end])
        return host.isEmpty ? nil : host
    }
}
