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
    /// The zone the operator's server writes its times in, when the user knows it; nil = learned
    /// from the server (`ext/options`, then an opening of the client's own seen in the log).
    public var timeZone: TimeZone?
    /// `Accept-Language` of every request (the server writes its messages, also those it sends
    /// other users because of a request, in it); nil = from the user's locale (`LANG`).
    public var language: String?
    /// Seconds between the daemon's rounds over this operator's event log and unread count.
    public var logInterval: Double

    public init(name: String, api: String, phone: String? = nil, caFile: String? = nil, open: OperatorOpenMethod = .dtmf,
                timeZone: TimeZone? = nil, language: String? = nil, logInterval: Double = 60) {
        self.name = name
        self.api = api
        self.phone = phone
        self.caFile = caFile
        self.open = open
        self.timeZone = timeZone
        self.language = language
        self.logInterval = logInterval
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

    /// A zone as `timezone` takes it: an IANA name (`Europe/Moscow`, `UTC`) or a fixed offset
    /// (`+03:00`, `UTC+3`, `-0430`); nil for anything else.
    public static func zone(_ text: String) -> TimeZone? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var offset = trimmed.uppercased()
        for prefix in ["UTC", "GMT"] where offset.hasPrefix(prefix) && offset.count > prefix.count {
            offset.removeFirst(prefix.count)
        }
        if let sign = offset.first, sign == "+" || sign == "-" {
            let digits = String(offset.dropFirst().filter { $0 != ":" })
            guard (1...4).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            let hours = Int(digits.count <= 2 ? digits : String(digits.dropLast(2))) ?? 99
            let minutes = digits.count <= 2 ? 0 : Int(String(digits.suffix(2))) ?? 99
            guard hours <= 14, minutes < 60 else { return nil }
            return TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
        }
        // TimeZone(identifier:) takes some abbreviations too; a name has a letter and no spaces.
        guard !trimmed.isEmpty, !trimmed.contains(" ") else { return nil }
        return TimeZone(identifier: trimmed)
    }

    /// The language tag `Accept-Language` gets from a locale variable: `ru_RU.UTF-8` → `ru`;
    /// `C`, `POSIX` or nothing → `en`. `LC_ALL` wins over `LC_MESSAGES` over `LANG`, as in POSIX.
    public static func language(environment: [String: String]) -> String {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let code = locale.prefix { $0.isLetter }.lowercased()
        return (2...3).contains(code.count) ? code : "en"
    }
}
