import IntercomBase

/// What the token file holds for one operator: the bearer token (nil after logout) and the device
/// id this install confirms logins with. The id is made once and kept across logout and login: the
/// server keys devices by it, so the same id rotates the token instead of adding a device.
public struct OperatorCredentials: Sendable, Equatable, CustomStringConvertible {
    public var deviceId: String
    public var token: String?

    public init(deviceId: String, token: String? = nil) {
        self.deviceId = deviceId
        self.token = token
    }

    /// Never the token itself: this may reach a log.
    public var description: String {
        "OperatorCredentials(deviceId: \(deviceId), token: \(token == nil ? "none" : Redaction.mask))"
    }

    var json: JSONValue {
        .object([("device_id", .string(deviceId)), ("token", .optional(token))])
    }

    init?(json: JSONValue) {
        guard let deviceId = json.text("device_id") else { return nil }
        self.deviceId = deviceId
        token = json.text("token")
    }
}
