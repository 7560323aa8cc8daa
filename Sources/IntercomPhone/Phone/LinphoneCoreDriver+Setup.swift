import CFrameSink
import CLinphone
import Foundation
import IntercomBase

/// Configuring a new core: transports, TLS and SRTP, video, codecs, the account.
extension LinphoneCoreDriver {

    /// liblinphone binds one host for all transports and one port per transport.
    static func checkListenAddresses(_ listen: [ListenAddress]) throws(PhoneError) {
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

    func configure() {
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
        // One more call than this is answered 486 by liblinphone itself; `callLogUpdated` reports it.
        linphone_core_set_max_calls(core, Int32(max(1, settings.maxCalls)))
        // A caller that vanishes (power cut, cable pulled) never sends BYE; only silence on RTP shows it.
        linphone_core_set_nortp_timeout(core, Int32(settings.noRTPTimeoutSeconds))
        disableUnusedServices()
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
            if let playback {
                _ = linphone_core_set_playback_device(core, playback)
                // The ringtone rings where calls play; left alone it takes the system's default sink.
                _ = linphone_core_set_ringer_device(core, playback)
            }
            if let capture { _ = linphone_core_set_capture_device(core, capture) }
        }

        configureVideo()
        configureCodecs()
    }

    /// Chat, presence and conferencing are nothing the intercom does: a MESSAGE is refused before
    /// liblinphone stores it (2 000 of them from one stranger once grew linphone.db by 2.4 MB and the
    /// process by 40 MB), our friend lists subscribe to nobody, and no group chat or end-to-end
    /// encryption server is reached. Even panels and the registrar, whose requests reach liblinphone
    /// unscreened, get a refusal for these.
    func disableUnusedServices() {
        linphone_core_disable_chat(core, LinphoneReasonNotImplemented)
        linphone_core_enable_friend_list_subscription(core, 0)
        linphone_core_enable_lime_x3dh(core, 0)
        linphone_core_enable_conference_server(core, 0)
    }

    /// SIP over TLS (trust, our client certificate) and SRTP for the media.
    func configureSecurity() throws(PhoneError) {
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
    func applyTLSTrust() {
        let tls = settings.tls
        let authorities = tls.caFile
            ?? (FileManager.default.fileExists(atPath: SIPTLSSettings.systemCAFile) ? SIPTLSSettings.systemCAFile : nil)
        if let authorities { linphone_core_set_root_ca(core, authorities) }
        linphone_core_verify_server_certificates(core, tls.verify ? 1 : 0)
        linphone_core_verify_server_cn(core, tls.verify ? 1 : 0)
    }

    func configureVideo() {
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

    func configureCodecs() {
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
    func reorder(_ list: UnsafeMutablePointer<bctbx_list_t>?, wanted: [String],
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
        guard let uri = SIPURI(parsing: account.proxy ?? account.identity) else { return nil }
        if case let value?? = uri.parameter("transport") { return SIPTransport(rawValue: value.lowercased()) }
        return uri.scheme == .sips ? .tls : nil
    }

    func readBackTransports() throws(PhoneError) {
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

    func addAccount(_ account: SIPAccount) throws(PhoneError) {
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

}
