import Foundation
import IntercomBase

/// The frame subscriptions and the panels' alarm streams are the subscriptions part's
/// (`Subscriptions`); the engine hands it the commands with what they need of the config now.
extension Intercom {
    /// Carries out a subscription command; its reply data. Needs no phone: `intercom watch` starts none.
    func subscription(_ command: IntercomCommand) async throws(IntercomError) -> JSONValue {
        try await subscriptions.execute(command, subscriptionsEngine)
    }

    /// Whether `subscriber` shows camera `id` (a control connection may then ask for its pictures).
    public func shows(_ subscriber: Subscriber, camera id: String) async -> Bool {
        await subscriptions.shows(subscriber, camera: id)
    }

    /// Follows every panel's alarm stream, reported as `panel_event`, `panel_unreachable` and `panel_reachable`.
    public func watchPanels() async { await subscriptions.watchAlarms() }

    /// Shows `names` without a call, replacing the set (`Subscriptions.watch`; tests call it directly).
    func watch(panels names: [String], fps: Double, fullSize: Bool = false, live: LiveStreamChoice? = nil) async {
        await subscriptions.watch(panels: names, fps: fps, fullSize: fullSize, live: live, subscriptionsEngine)
    }

    private var subscriptionsEngine: Subscriptions.Engine {
        Subscriptions.Engine(panels: config.panels, services: services) {
            (id: String, view: OperatorCameraView) async throws(IntercomError) -> CameraPlayer in
            let camera = try await self.operatorCamera(id, view)
            return await self.cameraPlayer(camera)
        }
    }
}
