import IntercomBase

/// How the operator confirms a login (`user/requestCode`): a PIN by SMS, or a flash call the
/// subscriber makes to one of `confirmationNumbers` (then `user/checkPhone` succeeds).
public enum LoginChallenge: Sendable, Equatable {
    case sms
    case outgoingCall(numbers: [String])

    init(json: JSONValue?) {
        guard let json, json.text("method") == "outgoingCall" else {
            self = .sms
            return
        }
        self = .outgoingCall(numbers: (json["confirmationNumbers"]?.arrayValue ?? []).compactMap(\.looseString))
    }
}

/// A confirmed login: the bearer token and the subscriber's name as the operator has it.
public struct LoginGrant: Sendable, Equatable, CustomStringConvertible {
    public var token: String
    public var name: String?

    init?(json: JSONValue?) {
        guard let json, let token = json.text("accessToken") else { return nil }
        self.token = token
        let names = json["names"]
        let parts = ["name", "patronymic", "last"].compactMap { names?.text($0) }
        name = parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    public var description: String { "LoginGrant(token: \(Redaction.mask), name: \(name ?? "nil"))" }
}
