import IntercomOperator

/// What the engine asks of a SmartYard operator's mobile API: the doors, the entrance cameras,
/// one camera's address and opening a door. `OperatorClient` is the production one.
public protocol OperatorService: Sendable {
    func addresses() async throws(OperatorError) -> [OperatorAddress]
    /// Every entrance's camera by panel and entrance (`cctv/camMap`).
    func panelCameras() async throws(OperatorError) -> OperatorCameraMap
    func camera(id: String) async throws(OperatorError) -> OperatorCamera?
    func openDoor(domophoneId: String, doorId: Int) async throws(OperatorError)
    /// Takes a guest's access to the flat back (`address/access` with a time already past).
    func removeGuest(flatId: String, phone: String) async throws(OperatorError)
    /// Whether the flat's list still names the guest (the server answers 204 also when it did nothing).
    func hasGuest(flatId: String, phone: String) async throws(OperatorError) -> Bool
}

extension OperatorClient: OperatorService {
    public func removeGuest(flatId: String, phone: String) async throws(OperatorError) {
        try await removeAccess(flatId: flatId, guestPhone: phone)
    }

    public func hasGuest(flatId: String, phone: String) async throws(OperatorError) -> Bool {
        try await flats().first { $0.flatId == flatId }?.roommates.contains { $0.isPhone(phone) } == true
    }
}
