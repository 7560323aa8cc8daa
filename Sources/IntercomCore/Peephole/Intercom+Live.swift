import Foundation
import IntercomBase
import IntercomPhone

extension Intercom {
    /// The call's peephole (`Peephole.start(for:)`), its rate and size reported as `peephole_frame`.
    func startPeephole(_ id: CallID, panel: PanelConfig, phone: any PhoneService) {
        guard let session = calls[id] else { return }
        // The call's tasks: cancelled when it ends, which releases self.
        Peephole.start(for: session, panel: panel, in: config.panels, client: panels[panel.name], phone: phone, hub: peephole,
                       logger: logger, services: services) { width, height, fps in
            await self.reportPeephole(id, width: width, height: height, fps: fps)
        }
    }

    func reportPeephole(_ id: CallID, width: Int, height: Int, fps: Double) {
        guard let session = calls[id] else { return }
        publish(.peepholeFrame(session.ref, width: width, height: height, fps: fps))
    }
}
