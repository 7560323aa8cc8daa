import Foundation
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
    /// The flat's other subscribers (the server leaves the caller out).
    public var roommates: [OperatorRoommate]
    /// The entry code (`doorCode`): the server leaves it out when the flat has none ("00000").
    public var doorCode: String?
    /// The flat's RFID keys (`keys`): the server lists them to the flat's owner only, so nil
    /// means "not told", not "none".
    public var keys: [OperatorKey]?

    public init(flatId: String, flatNumber: String? = nil, houseId: String? = nil, address: String = "",
                isOwner: Bool = false, hasPlog: Bool = false, roommates: [OperatorRoommate] = [],
                doorCode: String? = nil, keys: [OperatorKey]? = nil) {
        self.flatId = flatId
        self.flatNumber = flatNumber
        self.houseId = houseId
        self.address = address
        self.isOwner = isOwner
        self.hasPlog = hasPlog
        self.roommates = roommates
        self.doorCode = doorCode
        self.keys = keys
    }

    init?(json: JSONValue) {
        guard let flatId = json.text("flatId") else { return nil }
        self.init(flatId: flatId, flatNumber: json.text("flatNumber"), houseId: json.text("houseId"),
                  address: json.text("address") ?? "flat \(flatId)",
                  isOwner: json["flatOwner"]?.looseBool ?? false,
                  // Absent without a log backend: then plog answers 403, so do not ask.
                  hasPlog: json["hasPlog"]?.looseBool ?? false,
                  roommates: (json["roommates"]?.arrayValue ?? []).compactMap(OperatorRoommate.init(json:)),
                  doorCode: json.text("doorCode").flatMap { FlatSettings.noCode($0) ? nil : $0 },
                  keys: json["keys"]?.arrayValue?.compactMap(OperatorKey.init(json:)))
    }

    static func list(_ data: JSONValue?) -> [OperatorFlat]? {
        guard let data else { return [] }
        return data.arrayValue?.compactMap(OperatorFlat.init(json:))
    }
}

/// Another subscriber of a flat (`roommates` of `getSettingsList`): `owner` or `inner`. The
/// server writes every `expire` as 3001-01-01: it keeps no expiry for shared access.
public struct OperatorRoommate: Sendable, Equatable {
    public var phone: String
    /// `owner`, `inner` (the intercom) or `outer` (gates only), as the server says.
    public var type: String?
    /// `expire` as the server wrote it (`Y-m-d H:i:s` in its zone).
    public var expire: String?

    public init(phone: String, type: String? = nil, expire: String? = nil) {
        self.phone = phone
        self.type = type
        self.expire = expire
    }

    init?(json: JSONValue) {
        guard let phone = json.text("phone") else { return nil }
        self.init(phone: phone, type: json.text("type"), expire: json.text("expire"))
    }

    /// When the access ends, read in `timeZone`; nil for none: no `expire`, or the server's
    /// "forever" (every `expire` from year 3000 on, as the server writes 3001-01-01 for all).
    public func expiry(timeZone: TimeZone) -> Date? {
        guard let expire, let year = Int(expire.prefix(4)), year < 3000 else { return nil }
        return OperatorTime.parse(expire, timeZone: timeZone)
    }

    /// Whether this is `phone`: the server may keep a number with a leading 8 where the client has 7.
    public func isPhone(_ phone: String) -> Bool {
        self.phone.suffix(10) == phone.suffix(10) && self.phone.count == phone.count
    }
}

/// An RFID key of the flat (`keys` of `getSettingsList`: the backend's `houses_rfids` rows, access
/// type 2 = a flat's key). Numbers may come as numbers or strings (the database driver decides).
public struct OperatorKey: Sendable, Equatable {
    /// The key's number as the panel reads it.
    public var rfId: String
    public var comment: String?
    /// When a panel last saw the key, as the server wrote it; nil for never (or not told).
    public var lastSeen: String?

    public init(rfId: String, comment: String? = nil, lastSeen: String? = nil) {
        self.rfId = rfId
        self.comment = comment
        self.lastSeen = lastSeen
    }

    /// `lastSeen` as a time: the server writes the UNIX seconds of the panel's last sighting
    /// (a raw number is no use to a person); nil for never, or a text that is no such number.
    public var lastSeenDate: Date? {
        guard let lastSeen, let seconds = Int(lastSeen), seconds > 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    init?(json: JSONValue) {
        guard let rfId = json["rfId"]?.looseString, !rfId.isEmpty else { return nil }
        self.init(rfId: rfId, comment: json.text("comments"), lastSeen: json["lastSeen"]?.looseString)
    }
}
