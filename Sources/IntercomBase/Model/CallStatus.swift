import Foundation

/// Where a call stands, as `status` and `state` name it (`"state"` of each call): spelled here
/// only, for the engine that writes it and the screens that read it back.
public enum CallStage: String, Sendable, Codable, CaseIterable {
    case ringing, answering, active, dialing
}

/// One call of the `status`/`state` object, typed both ways: the engine writes it, an attached
/// screen reads it back (a call in progress when it attached). The JSON keeps the keys the
/// control socket's reference names, in its order.
public struct CallStatus: Sendable, Equatable {
    public var call: CallID
    public var panel: String?
    public var from: String
    public var state: CallStage
    public var since: Date

    public init(call: CallID, panel: String?, from: String, state: CallStage, since: Date) {
        self.call = call
        self.panel = panel
        self.from = from
        self.state = state
        self.since = since
    }

    public var json: JSONValue {
        .object([("call", .string(call.rawValue)), ("panel", .optional(panel)), ("from", .string(from)),
                 ("state", .string(state.rawValue)), ("since", .string(RFC3339.string(since)))])
    }

    /// A call as `json` writes it; nil when its id or stage is missing or unknown. A `since` that
    /// does not read is `now`, a missing `from` empty: a screen still shows the call.
    public init?(json: JSONValue, now: Date = Date()) {
        guard let id = json["call"]?.stringValue, let stage = json["state"]?.stringValue.flatMap(CallStage.init) else { return nil }
        self.init(call: CallID(id), panel: json["panel"]?.stringValue, from: json["from"]?.stringValue ?? "", state: stage,
                  since: json["since"]?.stringValue.flatMap(RFC3339.date) ?? now)
    }
}
