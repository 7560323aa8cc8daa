import Foundation
import IntercomBase

/// One `KEY=VALUE` of `intercom settings`, checked and turned into the wire field and value.
public struct FlatSettingChange: Sendable, Equatable {
    public var key: String
    public var wireKey: String
    public var wireValue: String
    /// `auto_open`'s time: written in the operator's time zone when sent (`wireValue(in:)`).
    public var until: Date?

    public init(key: String, wireKey: String, wireValue: String, until: Date? = nil) {
        self.key = key
        self.wireKey = wireKey
        self.wireValue = wireValue
        self.until = until
    }

    /// The value as sent to an operator whose dates are in `timeZone`.
    public func wireValue(in timeZone: TimeZone) -> String {
        until.map { OperatorTime.format($0, timeZone: timeZone) } ?? wireValue
    }

    /// `door_code=new`: not a field of `address/intercom` but `address/resetCode`.
    public var resetsDoorCode: Bool { key == "door_code" }

    public static let keys = ["cms", "voip", "auto_open", "white_rabbit", "door_code", "disable_plog", "hidden_plog"]
    /// The server reads these from the flat's owner only and ignores them from anyone else, with
    /// 200 (server/mobile/address/intercom.php: `$flat_owner`): refused up front for a non-owner.
    public static let ownerOnlyKeys = ["disable_plog", "hidden_plog"]
    /// Shown, never set: the server computes them and does not read them from a request.
    public static let readOnlyKeys = ["frs", "lprs"]
    public static let readOnlyReason = "the operator's server never reads it from a request: "
        + "it shows whether the entrance's camera recognises faces (frs) or plates (lprs)"
    public static let whiteRabbitMinutes = [0, 1, 2, 3, 5, 7, 10]

    /// Parses `text`; the error is the usage line to print.
    public static func parse(_ text: String, now: Date = Date()) -> Result<FlatSettingChange, SettingParseError> {
        guard let eq = text.firstIndex(of: "=") else {
            return .failure(SettingParseError("'\(text)' is not KEY=VALUE (keys: \(keys.joined(separator: ", ")))"))
        }
        let key = text[..<eq].lowercased().replacingOccurrences(of: "-", with: "_")
        let value = String(text[text.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
        func flag(_ wire: String, negate: Bool = false) -> Result<FlatSettingChange, SettingParseError> {
            guard let on = onOff(value) else {
                return .failure(SettingParseError("\(key) takes on or off, not '\(value)'"))
            }
            return .success(FlatSettingChange(key: key, wireKey: wire, wireValue: (on != negate) ? "t" : "f"))
        }
        switch key {
        case "cms": return flag("CMS")
        case "disable_plog": return flag("disablePlog")
        case "hidden_plog": return flag("hiddenPlog")
        case "voip": return flag("VoIP")
        case "frs", "lprs":
            return .failure(SettingParseError("\(key) is read only: \(readOnlyReason)"))
        case "white_rabbit":
            let minutes = value.lowercased() == "off" ? 0 : Int(value)
            guard let minutes, whiteRabbitMinutes.contains(minutes) else {
                return .failure(SettingParseError("white_rabbit takes minutes 0, 1, 2, 3, 5, 7 or 10 (or off), not '\(value)'"))
            }
            return .success(FlatSettingChange(key: key, wireKey: "whiteRabbit", wireValue: String(minutes)))
        case "auto_open":
            if onOff(value) == false {
                return .success(FlatSettingChange(key: key, wireKey: "autoOpen", wireValue: OperatorTime.past))
            }
            guard let until = untilTime(value, now: now) else {
                return .failure(SettingParseError(
                    "auto_open takes off or \(UntilTimeParser.forms), not '\(value)'"))
            }
            guard until > now else { return .failure(SettingParseError("auto_open time '\(value)' is in the past; use off")) }
            return .success(FlatSettingChange(key: key, wireKey: "autoOpen", wireValue: OperatorTime.format(until), until: until))
        case "door_code":
            guard value.lowercased() == "new" else {
                return .failure(SettingParseError("door_code takes only 'new' (the operator picks the new code), not '\(value)'"))
            }
            return .success(FlatSettingChange(key: key, wireKey: "", wireValue: ""))
        default:
            return .failure(SettingParseError("unknown setting '\(key)' (keys: \(keys.joined(separator: ", ")))"))
        }
    }

    /// Why `changes` cannot be made by this subscriber of `flat` (an owner-only key from a
    /// non-owner, which the server would answer 200 and ignore); nil when they can.
    public static func ownerRefusal(_ changes: [FlatSettingChange], flat: OperatorFlat) -> SettingParseError? {
        guard !flat.isOwner, let key = changes.first(where: { ownerOnlyKeys.contains($0.key) })?.key else { return nil }
        return SettingParseError("\(key) is the flat's owner's to change, and this login is not the owner of flat \(flat.flatId): "
                                 + "the operator would ignore it; ask the owner")
    }

    static func onOff(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "on", "yes", "true", "1", "t": return true
        case "off", "no", "false", "0", "f": return false
        default: return nil
        }
    }

    /// `30m`, `2h`, `1d` from now, `20:00`, `tomorrow 08:00`, or an absolute time as `guest_until`
    /// takes it: `UntilTimeParser`, the one parser `ctl guest` uses too.
    public static func untilTime(_ value: String, now: Date = Date()) -> Date? {
        try? UntilTimeParser.parse(value, now: now)
    }
}

/// A `KEY=VALUE` that cannot be applied: the message says why and what is accepted.
public struct SettingParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
