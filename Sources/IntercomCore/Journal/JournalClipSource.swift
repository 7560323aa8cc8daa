import Foundation
import IntercomBase
import IntercomVideo

/// What the journal recorder needs for clips (`[panel] record`); a protocol so it can be tested
/// with any stream.
public protocol JournalClipSource: Sendable {
    /// The panel's `record` in force (SIGHUP changes it for the next call); `off` for calls of no panel.
    func recordMode(panel: String?) async -> RecordMode
    /// The recording the core started when it answered `call`, handed over once.
    func takeCallClip(call: CallID) -> String?
    /// The panel's camera stream to record rings from; nil when it has none (`rtsp = off`).
    func ringStream(panel: String?) async -> VideoSource?
}

/// Clips of the running core: its config and the clip files it named at answer.
public struct IntercomClipSource: JournalClipSource {
    let intercom: Intercom

    public init(_ intercom: Intercom) { self.intercom = intercom }

    public func recordMode(panel: String?) async -> RecordMode {
        guard let panel else { return .off }
        return await intercom.config.panels.first { $0.name == panel }?.record ?? .off
    }

    public func takeCallClip(call: CallID) -> String? { intercom.clips.take(call) }

    public func ringStream(panel: String?) async -> VideoSource? {
        guard let panel, let config = await intercom.config.panels.first(where: { $0.name == panel }),
              let url = config.rtspURL else { return nil }
        return VideoSource(url: url, user: config.user, password: config.password)
    }
}
