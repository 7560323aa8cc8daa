import IntercomBase

/// What one line of a Beward panel's syslog says, for the lines that tell who opened a door or
/// whom the panel calls. The strings are the ones SmartYard-Server's event services match on its
/// panels' syslog (`BewardService.js`, `BewardServiceDS.js`, and the call patterns of its
/// `clickhouse`/plog task); every other line is nil. A pure function of the message, which
/// `SyslogFrame` has already cut and cleaned.
public enum BewardSyslogLine: Sendable, Equatable {
    /// The panel opened a door by itself: `by` is `key` (with the key's id), `code`, `button`,
    /// `handset` or `dtmf`; `flat` when the line names the apartment. A code's digits are never kept.
    case doorOpened(by: DoorTrigger, door: Door, key: String?, flat: String?)
    /// The panel calls `flat`: `via` `sip` (the number it dials) or `cms` (an analogue handset).
    case calling(flat: String, via: String)
    /// The flat's analogue handset took the call.
    case answeredOnHandset(flat: String)
    /// `All calls are done for apartment N`: the panel's calls to the flat ended.
    case callsDone(flat: String)

    public static func parse(_ message: String) -> BewardSyslogLine? {
        let line = stripPrefixes(Substring(message))
        if line.hasPrefix("Opening door by RFID ") || line.hasPrefix("Opening door by external RFID ") {
            let key = line.split(separator: "RFID ", maxSplits: 1).last?.prefix(while: \.isHexDigit) ?? ""
            guard (1...20).contains(key.count) else { return nil }
            return .doorOpened(by: .key, door: line.contains("external") ? .alt : .main, key: key.uppercased(),
                               flat: apartment(in: line))
        }
        if line.hasPrefix("Opening door by code") {
            return .doorOpened(by: .code, door: .main, key: nil, flat: apartment(in: line))
        }
        if line.hasPrefix("Opening door by CMS handset") {
            return .doorOpened(by: .handset, door: .main, key: nil, flat: apartment(in: line))
        }
        if line.hasPrefix("Opening door by DTMF command") {
            return .doorOpened(by: .dtmf, door: .main, key: nil, flat: apartment(in: line))
        }
        if line.hasPrefix("Main door button pressed") {
            return .doorOpened(by: .button, door: .main, key: nil, flat: nil)
        }
        if line.hasPrefix("Additional door button pressed") {
            return .doorOpened(by: .button, door: .alt, key: nil, flat: nil)
        }
        if line.hasPrefix("Calling sip:"), line.contains(" through account") {
            let user = line.dropFirst("Calling sip:".count).prefix { $0 != "@" && $0 != " " }
            guard !user.isEmpty, user.count <= 32, user.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLetter) }) else { return nil }
            return .calling(flat: String(user), via: "sip")
        }
        if line.hasPrefix("CMS handset call started for apartment"), let flat = apartment(in: line) {
            return .calling(flat: flat, via: "cms")
        }
        if line.hasPrefix("CMS handset talk started for apartment"), let flat = apartment(in: line) {
            return .answeredOnHandset(flat: flat)
        }
        if line.hasPrefix("All calls are done for apartment"), let flat = apartment(in: line) {
            return .callsDone(flat: flat)
        }
        return nil
    }

    /// The flat after `apartment` (`apartment 12`, `apartment [12]`); nil when absent or 0 (a
    /// key or code of no flat: Beward writes `apartment 0`).
    static func apartment(in line: Substring) -> String? {
        guard let word = line.range(of: "apartment", options: .backwards) else { return nil }
        let digits = line[word.upperBound...].drop { $0 == " " || $0 == "[" }.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9, let number = Int(digits), number > 0 else { return nil }
        return String(number)
    }

    /// The panel's own prefixes before the text SmartYard matches: `[61255] ` (its call's id) and
    /// DS's `EVENT:<n>:`.
    private static func stripPrefixes(_ line: Substring) -> Substring {
        var rest = line
        if rest.hasPrefix("EVENT:"), let colon = rest.dropFirst(6).firstIndex(of: ":") {
            rest = rest[rest.index(after: colon)...]
        }
        if rest.first == "[", let close = rest.firstIndex(of: "]"), rest[rest.index(after: rest.startIndex)..<close].allSatisfy(\.isNumber) {
            rest = rest[rest.index(after: close)...].drop { $0 == " " }
        }
        return rest
    }
}
