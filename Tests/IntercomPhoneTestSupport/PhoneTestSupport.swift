import Foundation
import IntercomPhone
import IntercomTestSupport
import IntercomBase

package enum PhoneTestSupport {
    /// A new folder `<tmp>/intercom-TAG-XXXXXX` for a phone's, an intercom's or a journal's data, removed
    /// when the test ends (`@Suite(.removesTestFolders)`; see `TestFolderScope`).
    package static func tempDirectory(_ tag: String = "phone") -> String {
        TestFolderScope.make(tag)
    }

    /// A quiet tone the test callers play, so their calls carry RTP as a real panel's do (the
    /// intercom waits for the caller's media before any automatic door opening). Written afresh into
    /// a folder of the calling test's (1 s of 8 kHz audio), so it goes with the test's other folders.
    package static var callerSound: String {
        let url = URL(fileURLWithPath: tempDirectory("caller-sound")).appendingPathComponent("tone.wav")
        try? WAVTone.write(to: url, frequency: 440, seconds: 1, amplitude: 0.05)
        return url.path
    }

    /// A loopback phone with no sound card, listening on a random UDP and TCP port (or on `listen`).
    package static func phone(_ name: String, audio: PhoneSettings.Audio = .files(play: callerSound, record: nil),
                      video: PhoneSettings.Video = .receive,
                      audioCodecs: [String]? = ["PCMA", "PCMU", "opus"],
                      videoCodecs: [String]? = ["H264", "VP8"],
                      mediaEncryption: MediaEncryption = .none,
                      account: SIPAccount? = nil, listen: [ListenAddress]? = nil) async throws -> (Phone, EventRecorder<PhoneEvent>) {
        var settings = PhoneSettings(
            listen: listen ?? [ListenAddress(transport: .udp, host: "127.0.0.1", port: 0),
                               ListenAddress(transport: .tcp, host: "127.0.0.1", port: 0)],
            dataDirectory: tempDirectory(name), user: name, audio: audio, video: video,
            audioCodecs: audioCodecs, videoCodecs: videoCodecs)
        settings.mediaEncryption = mediaEncryption
        settings.account = account
        let phone = try await Phone.start(settings, logger: .silent)
        return (phone, EventRecorder(phone.events))
    }

    package static func uri(of phone: Phone, user: String, transport: SIPTransport = .udp) -> String {
        let port = phone.listening.first { $0.transport == transport }?.port ?? 0
        return "sip:\(user)@127.0.0.1:\(port)" + (transport == .udp ? "" : ";transport=\(transport.rawValue)")
    }
}

extension PhoneEvent {
    package var incomingCall: CallInfo? { if case .incoming(let info) = self { info } else { nil } }
    package func established(_ id: CallID) -> CallMedia? {
        if case .established(id, let media) = self { media } else { nil }
    }
    package func ended(_ id: CallID) -> CallEndReason? {
        if case .ended(id, let reason, _, _) = self { reason } else { nil }
    }
    package var registered: String? {
        if case .registration(let account, .registered, _) = self { account } else { nil }
    }
    package func dtmf(_ id: CallID) -> Character? {
        if case .dtmfReceived(id, let c) = self { c } else { nil }
    }
}
