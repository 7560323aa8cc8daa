import Foundation
import IntercomBase
import IntercomPhone
import IntercomVideo

extension LivePicture {
    /// The panel's stream with its own user and password (Digest or Basic, as the server asks);
    /// nil when the panel has `rtsp = off` (or no sub stream).
    static func source(of panel: PanelConfig, stream: LiveStreamChoice) -> VideoSource? {
        guard let url = stream == .main ? panel.rtspURL : panel.rtspSubURL else { return nil }
        return VideoSource(url: url, user: panel.user, password: panel.password)
    }

    /// A live picture of panel `name` (as `panels` has it) into `hub`, or nil when it has no stream.
    static func panel(_ name: String, in panels: [PanelConfig], stream: LiveStreamChoice, call: CallID?, hub: PeepholeHub,
                      logger: Logger, services: IntercomServices) -> LivePicture? {
        guard let panel = panels.first(where: { $0.name == name }), let source = source(of: panel, stream: stream) else { return nil }
        var picture = LivePicture(panel: name, source: source, call: call, hub: hub, logger: logger,
                                  yieldsToOtherStreams: call != nil)
        picture.fixKey = "[panel \(name)] \(stream == .main ? "rtsp" : "rtsp_sub")"
        picture.use(services)
        return picture
    }
}
