import IntercomBase

extension DoorListing {
    /// An operator's doors in its address list's order, each once (`OperatorAddress.uniqueDoors`).
    public static func operatorDoors(_ name: String, _ addresses: [OperatorAddress]) -> [DoorListing] {
        OperatorAddress.uniqueDoors(addresses, operator: name).map { id, address, door in
            DoorListing(id: id, name: door.name, source: .operator, owner: name, address: address.address,
                        domophoneId: door.domophoneId, doorId: door.doorId, blocked: door.blocked)
        }
    }
}
