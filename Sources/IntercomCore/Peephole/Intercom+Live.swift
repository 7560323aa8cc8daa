import Foundation
import IntercomBase
import IntercomPhone
import IntercomModel

extension Intercom {
    /// Polls the panel's snapshot while the call rings, and after answering until the call's
    /// own video arrives; beside it the panel's live stream, once a screen shows the call (the
    /// first snapshot comes in ~20 ms, the stream's first frame waits for a key frame).
    func startPeephole(_ id: CallID, panel: PanelConfig, phone: any PhoneService) {
        guard let session = calls[id] else { return }
        if let live = LivePicture.panel(panel.name, in: config.panels, stream: .main, call: id, hub: peephole,
                                        logger: logger, services: services) {
            session.start(CallSession.livePicture) { await live.run(callVideo: phone.video) }
        }
        guard let client = panels[panel.name] else { return }
        let peephole = Peephole(panel: client, call: id, fps: panel.peepholeFPS, decodeSize: Self.peepholeDecodeSize,
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
