import Foundation

/// The `status` reply and the `state` object, typed both ways: the engine writes it, `doctor`
/// and an attached screen read it back. The JSON keeps the keys (and their order) the control
/// socket's reference names; the daemon's connection adds `screens` and `daemon` beside them.
public struct IntercomStatus: Sendable, Equatable {
    public struct Registration: Sendable, Equatable {
        public var account: String
        /// As the phone names it: `registered`, `failed`, `progress`, …
        public var state: String
        public var reason: String?

        public init(account: String, state: String, reason: String?) {
            self.account = account
            self.state = state
            self.reason = reason
        }
    }

    public struct Panel: Sendable, Equatable {
        public var name: String
        public var calls: Bool
        public var guestMode: Bool

        public init(name: String, calls: Bool, guestMode: Bool) {
            self.name = name
            self.calls = calls
            self.guestMode = guestMode
        }
    }

    public struct Operator: Sendable, Equatable {
        public var name: String
        /// Unread messages at the last inbox round; nil before one.
        public var unread: Int?

        public init(name: String, unread: Int?) {
            self.name = name
            self.unread = unread
        }
    }

    public var calls: [CallStatus]
    public var registration: Registration?
    public var panels: [Panel]
    public var listen: [String]
    /// The doors as `doors` lists them (their JSON: the door listing is the event model's).
    public var doors: [JSONValue]
    public var operators: [Operator]
    public var muted: Bool
    public var speaker: Bool

    public init(calls: [CallStatus], registration: Registration?, panels: [Panel], listen: [String], doors: [JSONValue],
                operators: [Operator], muted: Bool, speaker: Bool) {
        self.calls = calls
        self.registration = registration
        self.panels = panels
        self.listen = listen
        self.doors = doors
        self.operators = operators
        self.muted = muted
        self.speaker = speaker
    }

    public var json: JSONValue {
        let reg: JSONValue = registration.map {
            .object([("account", .string($0.account)), ("state", .string($0.state)), ("reason", .optional($0.reason))])
        } ?? .null
        return .object([("calls", .array(calls.map(\.json))), ("registration", reg),
                        ("panels", .array(panels.map { .object([("name", .string($0.name)), ("calls", .bool($0.calls)),
                                                                ("guest_mode", .bool($0.guestMode))]) })),
                        ("listen", .array(listen.map { .string($0) })),
                        ("doors", .array(doors)),
                        ("operators", .array(operators.map { .object([("name", .string($0.name)),
                                                                      ("unread", $0.unread.map { .integer($0) } ?? .null)]) })),
                        ("muted", .bool(muted)), ("speaker", .bool(speaker))])
    }

    /// The state as `json` writes it. Lenient as a reader of another version must be: what is
    /// missing reads as empty or off, a call or panel it cannot read is left out.
    public init(json: JSONValue) {
        func list(_ key: String) -> [JSONValue] { if case .array(let items)? = json[key] { items } else { [] } }
        calls = list("calls").compactMap { CallStatus(json: $0) }
        if let reg = json["registration"], reg != .null, let account = reg["account"]?.stringValue {
            registration = Registration(account: account, state: reg["state"]?.stringValue ?? "unknown", reason: reg["reason"]?.stringValue)
        } else {
            registration = nil
        }
        panels = list("panels").compactMap { panel in
            panel["name"]?.stringValue.map {
                Panel(name: $0, calls: panel["calls"]?.boolValue ?? true, guestMode: panel["guest_mode"]?.boolValue ?? false)
            }
        }
        listen = list("listen").compactMap(\.stringValue)
        doors = list("doors")
        operators = list("operators").compactMap { op in
            op["name"]?.stringValue.map { Operator(name: $0, unread: { if case .integer(let n)? = op["unread"] { n } else { nil } }()) }
        }
        muted = json["muted"]?.boolValue ?? false
        speaker = json["speaker"]?.boolValue ?? false
    }
}
