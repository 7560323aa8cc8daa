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

    /// Every door of `addresses` once, in the operator's order, with the address it is listed under
    /// first (a door shared by two addresses shows under the first), and its id (`OperatorItemID`).
    /// What `intercom doors` and the engine's door list both show.
    public static func uniqueDoors(_ addresses: [OperatorAddress], operator name: String)
        -> [(id: String, address: OperatorAddress, door: OperatorDoor)] {
        var seen = Set<String>()
        var doors: [(id: String, address: OperatorAddress, door: OperatorDoor)] = []
        for address in addresses {
            for door in address.doors {
                let id = OperatorItemID.door(operator: name, domophoneId: door.domophoneId, doorId: door.doorId)
                if seen.insert(id).inserted { doors.append((id, address, door)) }
            }
        }
        return doors
    }
}
