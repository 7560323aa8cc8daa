import IntercomOperator

/// What the engine asks of a SmartYard operator's mobile API: the doors, the entrance cameras,
/// one camera's address and opening a door. `OperatorClient` is the production one.
public protocol OperatorService: Sendable {
    func addresses() async throws(OperatorError) -> [OperatorAddress]
    /// domophoneId → the camera of that entrance panel (`cctv/camMap`).
    func panelCameras() async throws(OperatorError) -> [String: OperatorCamera]
    func camera(id: String) async throws(OperatorError) -> OperatorCamera?
    func openDoor(domophoneId: String, doorId: Int) async throws(OperatorError)
}

extension OperatorClient: OperatorService {}
