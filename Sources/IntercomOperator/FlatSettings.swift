import Foundation
import IntercomBase

/// A flat's intercom settings (`address/intercom`); every value is a string on the wire.
/// nil = the operator did not send the field (FRS only exists with face recognition).
public struct FlatSettings: Sendable, Equatable {
    /// CMS: ring the flat's analogue handset.
    public var cms: Bool?
    /// VoIP: ring this install's own device for this flat (the server keeps it per device: the
    /// subscriber's phone keeps its own).
    public var voip: Bool?
    /// Face recognition opens the door (the wire field is the negation, `FRSDisabled`). Read only:
    /// the server computes it from the entrances' cameras and never reads it from a request.
    public var frs: Bool?
    /// Plate recognition opens the gate (`LPRSDisabled`, negated); read only like `frs`.
    public var lprs: Bool?
    /// Open every call until this time (`autoOpen`); nil or past = off.
    public var autoOpen: Date?
    /// Minutes of auto-open after an opening by DTMF or handset: 0,1,2,3,5,7,10.
    public var whiteRabbit: Int?
    /// The entrance code, when the flat has one ("00000" is the server's "none": nil).
    public var doorCode: String?
    /// The owner's log privacy (`disablePlog`: no event log for the flat; `hiddenPlog`: the log
    /// shown to the owner only). The server sends them to the flat's owner alone: nil for others.
    public var disablePlog: Bool?
    public var hiddenPlog: Bool?

    public init(cms: Bool? = nil, voip: Bool? = nil, frs: Bool? = nil, lprs: Bool? = nil, autoOpen: Date? = nil,
                whiteRabbit: Int? = nil, doorCode: String? = nil, disablePlog: Bool? = nil, hiddenPlog: Bool? = nil) {
        self.cms = cms
        self.voip = voip
        self.frs = frs
        self.lprs = lprs
        self.autoOpen = autoOpen
        self.whiteRabbit = whiteRabbit
        self.doorCode = doorCode
        self.disablePlog = disablePlog
        self.hiddenPlog = hiddenPlog
    }

    init?(json: JSONValue?, timeZone: TimeZone = .current) {
        guard let json, case .object = json else { return nil }
        cms = json["CMS"]?.looseBool
        voip = json["VoIP"]?.looseBool
        frs = json["FRSDisabled"]?.looseBool.map { !$0 }
        lprs = json["LPRSDisabled"]?.looseBool.map { !$0 }
        autoOpen = json.text("autoOpen").flatMap { OperatorTime.parse($0, timeZone: timeZone) }
        whiteRabbit = json["whiteRabbit"]?.looseInt
        let allowed = json["allowDoorCode"]?.looseBool ?? true
        // `intercom.php` writes "00000" for a flat without a code, where getSettingsList leaves it out.
        doorCode = allowed ? json.text("doorCode").flatMap { Self.noCode($0) ? nil : $0 } : nil
        disablePlog = json["disablePlog"]?.looseBool
        hiddenPlog = json["hiddenPlog"]?.looseBool
    }

    /// The server's "this flat has no entry code": `openCode` "00000" (or empty).
    static func noCode(_ code: String) -> Bool { code.isEmpty || code == "00000" }

    /// The values as shown: `auto_open` is a local time or `off` (a past date is off).
    public func fields(now: Date = Date()) -> [(String, JSONValue)] {
        func flag(_ value: Bool?) -> JSONValue { value.map { .bool($0) } ?? .null }
        let open: JSONValue = autoOpen.map { $0 > now ? .string(OperatorTime.format($0)) : .string("off") } ?? .string("off")
        return [("cms", flag(cms)), ("voip", flag(voip)), ("frs", flag(frs)), ("lprs", flag(lprs)), ("auto_open", open),
                ("white_rabbit", whiteRabbit.map { .integer($0) } ?? .null),
                ("door_code", doorCode.map { .string($0) } ?? .string("off")),
                ("disable_plog", flag(disablePlog)), ("hidden_plog", flag(hiddenPlog))]
    }

    /// `intercom settings --json`'s object, which the daemon's `settings` request answers too:
    /// the flat, its settings, and its RFID keys (null when the operator did not list them: it
    /// lists them to the owner only), each key's last sighting as local RFC 3339.
    public func json(operatorName: String, flat: OperatorFlat, now: Date = Date()) -> JSONValue {
        let keys: JSONValue = flat.keys.map { list in
            .array(list.map { key in
                .object([("rfid", .string(key.rfId)), ("comment", .optional(key.comment)),
                         ("last_seen", key.lastSeenDate.map { .string(RFC3339.string($0)) } ?? .optional(key.lastSeen))])
            })
        } ?? .null
        return .object([("operator", .string(operatorName)), ("flat", .string(flat.flatId)), ("address", .string(flat.address)),
                        ("owner", .bool(flat.isOwner))] + fields(now: now) + [("keys", keys)])
    }
}
