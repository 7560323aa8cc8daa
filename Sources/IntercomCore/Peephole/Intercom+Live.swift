import Foundation
import IntercomBase
import IntercomPhone
import IntercomVideo
import IntercomModel

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
        var picture = LivePicture(panel: panel, source: source, call: call, hub: peephole, logger: logger,
                                  yieldsToOtherStreams: call != nil)
        picture.fixKey = "[panel \(panel)] \(stream == .main ? "rtsp" : "rtsp_sub")"
        picture.use(services)
        return picture
    }

    /// Polls the panel's snapshot while the call rings, and after answering until the call's
    /// own video arrives; beside it the panel's live stream, once a screen shows the call (the
    /// first snapshot comes in ~20 ms, the stream's first frame waits for a key frame).
    func startPeephole(_ id: CallID, panel: PanelConfig, phone: any PhoneService) {
        guard let session = calls[id] else { return }
        if let live = livePicture(panel: panel.name, stream: .main, call: id) {
            session.start(CallSession.livePicture) { await live.run(callVideo: phone.video) }
        }
        guard let client = panels[panel.name] else { return }
        let peephole = Peephole(panel: client, call: id, fps: panel.peepholeFPS, decodeSize: peepholeDecodeSize,
                                hub: self.peephole, logger: logger, clock: clock)
        // The call's: cancelled when it ends (which releases self), and it stops by itself once
        // the call's own video arrives.
        session.start(CallSession.peephole) {
            await peephole.run(
                report: { width, height, fps in await self.reportPeephole(id, width: width, height: height, fps: fps) },
                callVideo: phone.video)
        }
    }

    func reportPeephole(_ id: CallID, width: Int, height: Int, fps: Double) {
        guard let session = calls[id] else { return }
        publish(.peepholeFrame(session.ref, width: width, height: height, fps: fps))
    }
}
