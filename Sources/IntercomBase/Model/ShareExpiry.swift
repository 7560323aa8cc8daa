import Foundation

/// An end of shared access the operator's server will not keep (it ignores `expire` when adding a
/// guest), so this intercom's daemon keeps it: at `until` it takes `phone`'s access to the flat back
/// through the operator's API, as `intercom share --remove` does.
public struct ShareExpiry: Sendable, Equatable {
    public var operatorName: String
    public var flatId: String
    /// The guest's phone, 11 digits as `OperatorConfig.normalizedPhone` gives it.
    public var phone: String
    public var until: Date
    /// The flat's address as the operator named it when the expiry was set (for the journal).
    public var address: String?

    public init(operatorName: String, flatId: String, phone: String, until: Date, address: String? = nil) {
        self.operatorName = operatorName
        self.flatId = flatId
        self.phone = phone
        self.until = until
        self.address = address
    }

    /// What `intercom share` asks of the daemon (`share_expiry` on the control socket): keep an end,
    /// or forget the one kept for a guest (the access was removed, or given again without an end).
    public enum Change: Sendable, Equatable {
        case keep(ShareExpiry)
        case forget(operatorName: String, flatId: String, phone: String)

        public var fields: [(String, JSONValue)] {
            switch self {
            case .keep(let expiry): expiry.fields
            case .forget(let name, let flat, let phone):
                [("operator", .string(name)), ("flat", .string(flat)), ("phone", .string(phone)), ("until", .null)]
            }
        }

        /// The request's fields read back (`until` null: forget); nil when malformed.
        public init?(json: JSONValue) {
            if json["until"] == nil || json["until"] == .null {
                guard let name = json["operator"]?.stringValue, !name.isEmpty, let flat = json["flat"]?.stringValue, !flat.isEmpty,
                      let phone = json["phone"]?.stringValue, phone.count == 11, phone.allSatisfy(\.isASCIIDigit) else { return nil }
                self = .forget(operatorName: name, flatId: flat, phone: phone)
            } else {
                guard let expiry = ShareExpiry(json: json) else { return nil }
                self = .keep(expiry)
            }
        }
    }

    /// One guest of one flat of one operator: a new expiry for it replaces the old one.
    public func sameGuest(_ other: ShareExpiry) -> Bool {
        sameGuest(operatorName: other.operatorName, flatId: other.flatId, phone: other.phone)
    }

    public func sameGuest(operatorName: String, flatId: String, phone: String) -> Bool {
        self.operatorName.lowercased() == operatorName.lowercased() && self.flatId == flatId && self.phone == phone
    }

    /// The fields of the control request, of its reply and of the kept file (`until` as RFC 3339).
    public var fields: [(String, JSONValue)] {
        [("operator", .string(operatorName)), ("flat", .string(flatId)), ("phone", .string(phone)),
         ("until", .string(RFC3339.string(until))), ("address", .optional(address))]
    }

    /// Reads `fields` back; nil when one is missing or malformed.
    public init?(json: JSONValue) {
        guard let name = json["operator"]?.stringValue, !name.isEmpty,
              let flat = json["flat"]?.stringValue, !flat.isEmpty,
              let phone = json["phone"]?.stringValue, phone.count == 11, phone.allSatisfy(\.isASCIIDigit),
              let text = json["until"]?.stringValue, let until = RFC3339.date(text) else { return nil }
        self.init(operatorName: name, flatId: flat, phone: phone, until: until, address: json["address"]?.stringValue)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
