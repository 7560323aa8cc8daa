import Foundation
import IntercomHTTP
import IntercomOperator

/// What the engine asks of a SmartYard operator's mobile API: the doors, the entrance cameras,
/// one camera's address and opening a door; the log sync its flats, event log and unread
/// messages. `OperatorClient` is the production one.
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
    /// The operator's time zone (its log's dates are in it).
    func timeZone() async -> TimeZone
    func flats() async throws(OperatorError) -> [OperatorFlat]
    /// The flat's settings after applying `changes` (`address/intercom`, `address/resetCode`).
    func settings(of flat: OperatorFlat, applying changes: [FlatSettingChange]) async throws(OperatorError) -> FlatSettings
    /// The days of a flat's event log that have entries (`address/plogDays`).
    func plogDays(flatId: String) async throws(OperatorError) -> [PlogDay]
    func plog(flatId: String, day: String) async throws(OperatorError) -> [PlogEntry]
    /// `inbox/unreaded`, which marks nothing read.
    func unreadMessages() async throws(OperatorError) -> Int
    /// A log entry's preview picture (`plogCamshot`: no token is sent, none is needed): the HTTP
    /// status and at most `maxBytes` of body.
    func preview(_ url: String, maxBytes: Int) async throws -> (status: Int, body: Data)
    /// What camera `cameraId`'s recording keeps (`cctv/ranges`).
    func archiveRanges(cameraId: String) async throws(OperatorError) -> OperatorArchiveRanges
}

extension OperatorService {
    /// An operator that cannot say: nothing known, so nothing is refused.
    public func archiveRanges(cameraId: String) async throws(OperatorError) -> OperatorArchiveRanges { OperatorArchiveRanges([]) }
}

extension OperatorClient: OperatorService {
    public func preview(_ url: String, maxBytes: Int) async throws -> (status: Int, body: Data) {
        let http = try HTTPClient(configuration: HTTPClientConfiguration(
            user: "", password: "", caFile: config.caFile, connectTimeout: .seconds(5), timeout: .seconds(10),
            maxBodyBytes: maxBytes), label: "operator.\(config.name).preview")
        let response = try await http.get(url)
        return (response.status, response.body)
    }

    public func removeGuest(flatId: String, phone: String) async throws(OperatorError) {
        try await removeAccess(flatId: flatId, guestPhone: phone)
    }

    public func hasGuest(flatId: String, phone: String) async throws(OperatorError) -> Bool {
        try await flats().first { $0.flatId == flatId }?.roommates.contains { $0.isPhone(phone) } == true
    }
}
