import Foundation
import IntercomBase
import IntercomOperator
import IntercomPhone
import IntercomVideo

/// Routes to the operator accounts (`OperatorAccounts`, which keep their state): doors beside the
/// panels, cameras, the call picture, unread messages, share expiry. What stays here touches the
/// engine's own: the `door_opened` reports (the call carries an opening in `DoorOpeningFlow`).
extension Intercom {
    /// How long an archive window `watch --at` asks for.
    public static let archiveWindowSeconds = 3600
    public nonisolated var operatorDoors: OperatorDoorDirectory { operators.doors }
    public nonisolated var operatorTokens: OperatorTokenStore { operators.tokens }
    /// Each operator's unread messages as the daemon's last inbox round found them (`ctl status`).
    public var operatorUnread: [String: Int] { operators.unread }
    /// The daemon's inbox round found `count` unread messages at operator `name`.
    public func noteUnread(_ name: String, _ count: Int) { operators.noteUnread(name, count) }
    /// Every door a front end can open: the panels' main doors, then the operators' doors.
    nonisolated func doorList(panels: [String]) -> [DoorListing] { panels.map(DoorListing.panel) + operators.doors.doors }
    public func refreshOperatorDoors() async { await operators.refresh(config.operators) }
    func startOperatorRefresh() { if !config.operators.isEmpty { operators.startRefresh { [weak self] in await self?.config.operators } } }
    func refreshOperatorDoorsSoon() { operators.refreshSoon(config.operators) }
    public func isOperatorCamera(_ name: String) -> Bool { operators.isCamera(name, in: config) }
    public func operatorCameraSource(_ id: String, _ view: OperatorCameraView) async throws(IntercomError) -> VideoSource {
        try await operators.cameraSource(id, view, in: config)
    }
    func operatorCamera(_ id: String, _ view: OperatorCameraView) async throws(IntercomError) -> CameraStream {
        try await operators.cameraStream(id, view, in: config)
    }

    /// A keeper of the shared-access ends in `store` on the engine's seams, which the `shareExpiry`
    /// command reaches (the host makes it once and runs it).
    public nonisolated func shareExpiryKeeper(store: ShareExpiryStore) -> ShareExpiryKeeper {
        let bus = bus
        return operators.shareExpiryKeeper(store: store, config: { [weak self] in
            guard let self else { throw IntercomError.notStarted }
            return await config
        }, publish: { bus.publish($0) })
    }

    /// Plays the entrance camera of an operator call's panel until the call's own video comes.
    func startOperatorPeephole(_ id: CallID, door: DoorListing, phone: any PhoneService) {
        guard let picture = operators.peephole(call: id, door: door, hub: peephole) else { return }
        calls[id]?.start(CallSession.livePicture) { await picture.run(callVideo: phone.video) }
    }

    /// `ok` in `door_opened` means the operator accepted the request: it does not know whether the
    /// door opened (it answers the same when the panel is down).
    func openOperatorDoor(_ target: (op: OperatorConfig, domophoneId: String, doorId: Int, id: String),
                          by trigger: DoorTrigger, call: CallSession?) async throws -> JSONValue {
        let ref = call?.ref
        return try await operators.open(OperatorDoorTarget(op: target.op, domophoneId: target.domophoneId, doorId: target.doorId, id: target.id),
                                        automatic: trigger.isAutomatic) { [weak self] error in
            await self?.reportDoor(owner: target.op.name, call: ref, door: target.id, method: "operator", by: trigger, error: error)
        }
    }
}
