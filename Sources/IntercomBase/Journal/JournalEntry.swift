import Foundation

/// One row of the journal: a call, a door opening or a panel alarm event.
public struct JournalEntry: Sendable, Equatable {
    public enum Kind: String, Sendable { case call, door, panelEvent = "panel_event" }

    public var id: Int64
    public var kind: Kind
    /// Call start, door opening or alarm time.
    public var time: Date
    public var panel: String?
    public var call: String?
    public var caller: String?
    public var ended: Date?
    /// The call_ended reason; nil while the call was in progress (or the daemon died during it).
    public var outcome: String?
    public var durationSeconds: Double?
    public var answeredBy: String?
    /// Door entries: the door; panel events: their kind (ding, motion, door).
    public var detail: String?
    /// Door entries: http or dtmf; panel events: on or off.
    public var method: String?
    public var ok: Bool?
    public var error: String?
    public var firstPicture: String?
    public var answerPicture: String?
    /// Door entries: what triggered the opening (key, ctl, command, guest_mode, hook); nil in
    /// journals written before it was kept.
    public var openedBy: String? = nil

    /// Rang and nobody talked.
    public var missed: Bool { kind == .call && answeredBy == nil && outcome != nil }

    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("id", .integer(Int(id))), ("kind", .string(kind.rawValue)), ("time", .string(RFC3339.string(time))),
            ("panel", .optional(panel)),
        ]
        switch kind {
        case .call:
            fields += [("call", .optional(call)), ("from", .optional(caller)),
                       ("ended", ended.map { .string(RFC3339.string($0)) } ?? .null),
                       ("outcome", .optional(outcome)),
                       ("duration_s", durationSeconds.map { .number(($0 * 10).rounded() / 10) } ?? .null),
                       ("answered_by", .optional(answeredBy)), ("missed", .bool(missed)),
                       ("first_picture", .optional(firstPicture)), ("answer_picture", .optional(answerPicture))]
        case .door:
            fields += [("call", .optional(call)), ("door", .optional(detail)), ("method", .optional(method)),
                       ("by", .optional(openedBy)), ("ok", ok.map { .bool($0) } ?? .null)]
            if let error { fields.append(("error", .string(error))) }
        case .panelEvent:
            fields += [("event_kind", .optional(detail)), ("state", .optional(method))]
        }
        return .object(fields)
    }
}
