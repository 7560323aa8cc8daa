import Foundation
import IntercomBase
import IntercomImaging
import IntercomPhone

extension Peephole {
    /// Snapshots are decoded no larger than this: more than any terminal picture needs.
    static let decodeLimit: PixelSize? = PixelSize(width: 640, height: 480)

    /// A call's pictures, as the call's tasks: the panel's snapshot polled while the call rings,
    /// and after answering until the call's own video arrives; beside it the panel's live stream,
    /// once a screen shows the call (the first snapshot comes in ~20 ms, the stream's first frame
    /// waits for a key frame). Both are cancelled when the call ends.
    static func start(for session: CallSession, panel: PanelConfig, in panels: [PanelConfig], client: (any PanelService)?,
                      phone: any PhoneService, hub: PeepholeHub, logger: Logger, services: IntercomServices, report: @escaping Report) {
        let id = session.info.id
        if let live = LivePicture.panel(panel.name, in: panels, stream: .main, call: id, hub: hub, logger: logger, services: services) {
            session.start(CallSession.livePicture) { await live.run(callVideo: phone.video) }
        }
        guard let client else { return }
        let peephole = Peephole(panel: client, call: id, fps: panel.peepholeFPS, decodeSize: decodeLimit,
                                hub: hub, logger: logger, clock: services.clock)
        // It stops by itself once the call's own video arrives.
        session.start(CallSession.peephole) { await peephole.run(report: report, callVideo: phone.video) }
    }
}
