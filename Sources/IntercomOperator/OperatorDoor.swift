import IntercomBase

/// A door of an address (`address/getAddressList` → `doors`): opened with `address/openDoor`.
public struct OperatorDoor: Sendable, Equatable {
    public var domophoneId: String
    public var doorId: Int
    public var name: String
    /// entrance, wicket, gate, barrier … (the apps' icon name).
    public var icon: String?
    public var doorCode: String?
    /// Why the door cannot be opened (the server sends a message, not a flag).
    public var blocked: String?

    public init(domophoneId: String, doorId: Int, name: String, icon: String? = nil,
                doorCode: String? = nil, blocked: String? = nil) {
        self.domophoneId = domophoneId
        self.doorId = doorId
        self.name = name
        self.icon = icon
        self.doorCode = doorCode
        self.blocked = blocked
    }

    init?(json: JSONValue) {
        guard let domophoneId = json.text("domophoneId") else { return nil }
        self.init(domophoneId: domophoneId, doorId: json["doorId"]?.looseInt ?? 0,
                  name: json.text("name") ?? "door \(json["doorId"]?.looseInt ?? 0)",
                  icon: json.text("icon"), doorCode: json.text("doorCode"), blocked: json.text("blocked"))
    }
}
