import IntercomBase

/// One address of the subscriber's (`address/getAddressList`): a house with its doors.
/// It carries no flat id; that comes from `address/getSettingsList` (`OperatorFlat`).
public struct OperatorAddress: Sendable, Equatable {
    public var houseId: String
    public var address: String
    public var hasPlog: Bool
    public var doors: [OperatorDoor]

    public init(houseId: String, address: String, hasPlog: Bool = false, doors: [OperatorDoor] = []) {
        self.houseId = houseId
        self.address = address
        self.hasPlog = hasPlog
        self.doors = doors
    }

    init?(json: JSONValue) {
        guard let houseId = json.text("houseId") else { return nil }
        self.init(houseId: houseId, address: json.text("address") ?? "house \(houseId)",
                  hasPlog: json["hasPlog"]?.looseBool ?? false,
                  doors: (json["doors"]?.arrayValue ?? []).compactMap(OperatorDoor.init(json:)))
    }

    /// `data` of getAddressList: nil (204, no addresses) is an empty list; anything but an array is wrong.
    static func list(_ data: JSONValue?) -> [OperatorAddress]? {
        guard let data else { return [] }
        return data.arrayValue?.compactMap(OperatorAddress.init(json:))
    }
}
