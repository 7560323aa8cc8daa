import Foundation
import IntercomBase
import IntercomVideo

/// Which of a panel's camera streams a view plays: the main one for a whole window, the sub
/// stream for the kiosk's small tiles.
public enum LiveStreamChoice: Sendable {
    case main, sub
}

extension Intercom {
    /// The panel's stream with its own user and password (Digest or Basic, as the server asks);
    /// nil when the panel has `rtsp = off` (or no sub stream).
    func liveSource(panel name: String, stream: LiveStreamChoice) -> VideoSource? {
        guard let panel = config.panels.first(where: { $0.name == name }),
              let url = stream == .main ? panel.rtspURL : panel.rtspSubURL else { return nil }
        return VideoSource(url: url, user: panel.user, password: panel.password)
    }

    /// A live picture of the panel into the peephole hub, or nil when it has no stream.
    func livePicture(panel: String, stream: LiveStreamChoice, call: CallID?) -> LivePicture? {
        guard let source = liveSource(panel: panel, stream: stream) else { return nil }
        return LivePicture(panel: panel, source: source, call: call, hub: peephole, logger: logger,
                           yieldsToOtherStreams: call != nil)
    }
}
