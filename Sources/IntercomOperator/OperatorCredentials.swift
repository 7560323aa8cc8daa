import Foundation
import IntercomBase

/// What the token file holds for one operator: the bearer token (nil after logout), the device
/// id this install confirms logins with, and what the client learned of the server's clock. The id
/// is made once and kept across logout and login: the server keys devices by it, so the same id
/// rotates the token instead of adding a device.
public struct OperatorCredentials: Sendable, Equatable, CustomStringConvertible {
    public var deviceId: String
    public var token: String?
    /// Seconds east of UTC of the times the server writes (its PHP zone), learned from the log
    /// entry of one of this client's own openings; nil until then.
    public var serverOffset: Int?
    /// The last door this client opened through the API, and when: its log entry, once seen,
    /// shows the server's offset (`OperatorServerZone`).
    public var zoneProbe: OperatorZoneProbe?
    /// The cameras this client last found by id (address and stream token, a secret like `token`):
    /// `export` starts with these instead of asking `cctv/all` first, and asks again when the
    /// camera server refuses a kept one. Dropped with the token at logout.
    public var cameras: [OperatorCamera] = []

    public init(deviceId: String, token: String? = nil, serverOffset: Int? = nil, zoneProbe: OperatorZoneProbe? = nil) {
        self.deviceId = deviceId
        self.token = token
        self.serverOffset = serverOffset
        self.zoneProbe = zoneProbe
    }

    /// Never the token itself: this may reach a log.
    public var description: String {
        "OperatorCredentials(deviceId: \(deviceId), token: \(token == nil ? "none" : Redaction.mask))"
    }

    var json: JSONValue {
        var fields: [(String, JSONValue)] = [("device_id", .string(deviceId)), ("token", .optional(token))]
        if let serverOffset { fields.append(("server_offset", .integer(serverOffset))) }
        if let zoneProbe { fields.append(("zone_probe", zoneProbe.json)) }
        if !cameras.isEmpty { fields.append(("cameras", .array(cameras.map(\.json)))) }
        return .object(fields)
    }

    init?(json: JSONValue) {
        guard let deviceId = json.text("device_id") else { return nil }
        self.deviceId = deviceId
        token = json.text("token")
        serverOffset = json["server_offset"]?.looseInt
        zoneProbe = json["zone_probe"].flatMap(OperatorZoneProbe.init(json:))
        cameras = json["cameras"]?.arrayValue?.compactMap(OperatorCamera.init(json:)) ?? []
    }
}

/// An opening this client asked the operator for: when (this machine's clock, just before the
/// request) and which door. The server logs it as "opened by app" at its own `time()`.
public struct OperatorZoneProbe: Sendable, Equatable {
    public var sent: Date
    public var domophoneId: String
    public var doorId: Int

    public init(sent: Date, domophoneId: String, doorId: Int) {
        self.sent = sent
        self.domophoneId = domophoneId
        self.doorId = doorId
    }

    var json: JSONValue {
        .object([("sent", .integer(Int(sent.timeIntervalSince1970))), ("domophone_id", .string(domophoneId)),
                 ("door_id", .integer(doorId))])
    }

    init?(json: JSONValue) {
        guard let sent = json["sent"]?.looseInt, let domophoneId = json.text("domophone_id"),
              let doorId = json["door_id"]?.looseInt else { return nil }
        self.init(sent: Date(timeIntervalSince1970: TimeInterval(sent)), domophoneId: domophoneId, doorId: doorId)
    }
}
