import Foundation
import IntercomEngine

enum PhoneTestSupport {
    static func tempDirectory(_ tag: String = "phone") -> String {
        let path = NSTemporaryDirectory() + "intercom-\(tag)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A quiet tone the test callers play, so their calls carry RTP as a real panel's do (the
    /// intercom waits for the caller's media before any automatic door opening).
    static let callerSound: String = {
        let url = URL(fileURLWithPath: tempDirectory("caller-sound")).appendingPathComponent("tone.wav")
        try? WAVTone.write(to: url, frequency: 440, seconds: 1, amplitude: 0.05)
        return url.path
    }()

    /// A loopback phone with no sound card, listening on a random UDP and TCP port.
    static func phone(_ name: String, audio: PhoneSettings.Audio = .files(play: callerSound, record: nil),
                      video: PhoneSettings.Video = .receive,
                      audioCodecs: [String]? = ["PCMA", "PCMU", "opus"],
                      videoCodecs: [String]? = ["H264", "VP8"],
                      mediaEncryption: MediaEncryption = .none) async throws -> (Phone, EventRecorder<PhoneEvent>) {
        var settings = PhoneSettings(
            listen: [ListenAddress(transport: .udp, host: "127.0.0.1", port: 0),
                     ListenAddress(transport: .tcp, host: "127.0.0.1", port: 0)],
            dataDirectory: tempDirectory(name), user: name, audio: audio, video: video,
            audioCodecs: audioCodecs, videoCodecs: videoCodecs)
        settings.mediaEncryption = mediaEncryption
        let phone = try await Phone.start(settings, logger: .silent)
        return (phone, EventRecorder(phone.events))
    }

    /// A started intercom on a random loopback UDP port, no sound card, recording its events.
    static func intercom(panels: [PanelConfig], unknownCallers: UnknownCallerPolicy = .reject,
                         declineOthers: Bool = false,
                         socketPath: String = "/tmp/unused.sock") async throws -> (Intercom, EventRecorder<IntercomEvent>) {
        let config = IntercomConfig(
            sip: SIPSettings(listen: [ListenAddress(transport: .udp, host: "127.0.0.1", port: 0)],
                             unknownCallers: unknownCallers, declineOthersOnAnswer: declineOthers),
            panels: panels, daemon: DaemonSettings(socketPath: socketPath))
        var settings = PhoneSettings(config: config, environment: [:])
        settings.dataDirectory = tempDirectory("intercom")
        settings.audio = .files(play: nil, record: nil)
        let intercom = Intercom(config: config, phoneSettings: settings, logger: .silent)
        let events = EventRecorder(intercom.bus.subscribe())
        try await intercom.start()
        return (intercom, events)
    }

    static func uri(of phone: Phone, user: String, transport: SIPTransport = .udp) -> String {
        let port = phone.listening.first { $0.transport == transport }?.port ?? 0
        return "sip:\(user)@127.0.0.1:\(port)" + (transport == .udp ? "" : ";transport=\(transport.rawValue)")
    }
}

extension PhoneEvent {
    var incomingCall: CallInfo? { if case .incoming(let info) = self { info } else { nil } }
    func established(_ id: CallID) -> CallMedia? {
        if case .established(id, let media) = self { media } else { nil }
    }
    func ended(_ id: CallID) -> CallEndReason? {
        if case .ended(id, let reason, _, _) = self { reason } else { nil }
    }
    func dtmf(_ id: CallID) -> Character? {
        if case .dtmfReceived(id, let c) = self { c } else { nil }
    }
}
