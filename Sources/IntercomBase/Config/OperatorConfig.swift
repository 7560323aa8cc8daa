import Foundation

/// One `[operator NAME]` section: a SmartYard operator account of the subscriber's (a flat's
/// phone number, not a panel's password). The bearer token from `intercom login` is kept in
/// the state directory (`OperatorTokenStore`), never here.
public struct OperatorConfig: Sendable, Equatable, CustomStringConvertible {
    public var name: String
    /// The mobile API base URL without a trailing slash (`https://HOST/mobile`).
    public var api: String
    /// 11 digits, as the operator's API keys subscribers (a leading 8 becomes 7).
    public var phone: String?
    /// A private CA bundle for the API's certificate; verification is never switched off.
    public var caFile: String?
    /// How `o` opens the door in a call that came from this operator's panel.
    public var open: OperatorOpenMethod

    public init(name: String, api: String, phone: String? = nil, caFile: String? = nil, open: OperatorOpenMethod = .dtmf) {
        self.name = name
        self.api = api
        self.phone = phone
        self.caFile = caFile
        self.open = open
    }

    public var description: String {
        "OperatorConfig(name: \(name), api: \(Redaction.uri(api)), phone: \(phone ?? "nil"))"
    }

    /// The subscriber's number as the API wants it: 11 digits, a leading 8 becomes 7; nil if it is
    /// not a phone number (the one rule, for the config and `login --phone`).
    public static func normalizedPhone(_ text: String) -> String? {
        let digits = text.filter { !" -()+".contains($0) }
        guard digits.count == 11, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return digits.hasPrefix("8") ? "7" + digits.dropFirst() : digits
    }
}
