import IntercomBase

/// A flat of the subscriber's (`address/getSettingsList`): the only source of `flatId`, which
/// the settings, sharing and event-log methods take.
public struct OperatorFlat: Sendable, Equatable {
    public var flatId: String
    public var flatNumber: String?
    public var houseId: String?
    public var address: String
    public var isOwner: Bool
    public var hasPlog: Bool

    public init(flatId: String, flatNumber: String? = nil, houseId: String? = nil, address: String = "",
                isOwner: Bool = false, hasPlog: Bool = false) {
        self.flatId = flatId
        self.flatNumber = flatNumber
        self.houseId = houseId
        self.address = address
        self.isOwner = isOwner
        self.hasPlog = hasPlog
    }

    init?(json: JSONValue) {
        guard let flatId = json.text("flatId") else { return nil }
        self.init(flatId: flatId, flatNumber: json.text("flatNumber"), houseId: json.text("houseId"),
                  address: json.text("address") ?? "flat \(flatId)",
                  isOwner: json["flatOwner"]?.looseBool ?? false,
                  // Absent without a log backend: then plog answers 403, so do not ask.
                  hasPlog: json["hasPlog"]?.looseBool ?? false)
    }

    static func list(_ data: JSONValue?) -> [OperatorFlat]? {
        guard let data else { return [] }
        return data.arrayValue?.compactMap(OperatorFlat.init(json:))
    }
}
