/// The control socket's `journal` request: which entries of the daemon's journal to send back
/// (`limit`: the newest N, 1-1000, default 20; `panel`; `unhandled`: the missed calls nobody
/// dealt with; `missed`). Kept apart from `ControlRequest` so the request's wire spelling of a
/// query lives in one place both ways.
public enum JournalRequestFields {
    public static let defaultLimit = 20
    public static let maxLimit = 1000

    /// Why a request's fields were refused, in one line.
    public struct Refusal: Error, Sendable, Equatable {
        public var text: String
    }

    public static func parse(_ value: JSONValue) -> Result<JournalQuery, Refusal> {
        var query = JournalQuery(limit: defaultLimit)
        if let raw = value["limit"], raw != .null {
            guard case .integer(let n) = raw, (1...maxLimit).contains(n) else {
                return .failure(Refusal(text: "\"limit\" must be a whole number of entries from 1 to \(maxLimit)"))
            }
            query.limit = n
        }
        if let raw = value["panel"], raw != .null {
            guard let text = raw.stringValue, !text.isEmpty else { return .failure(Refusal(text: "\"panel\" must be a panel name")) }
            query.panel = text
        }
        for key in ["unhandled", "missed"] {
            guard let raw = value[key], raw != .null else { continue }
            guard let on = raw.boolValue else { return .failure(Refusal(text: "\"\(key)\" must be true or false")) }
            if key == "unhandled" { query.unhandledOnly = on } else { query.missedOnly = on }
        }
        return .success(query)
    }

    /// The request's fields for `query` (what `parse` reads back).
    public static func fields(_ query: JournalQuery) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("limit", .integer(query.limit ?? defaultLimit))]
        if let panel = query.panel { fields.append(("panel", .string(panel))) }
        if query.unhandledOnly { fields.append(("unhandled", .bool(true))) }
        if query.missedOnly { fields.append(("missed", .bool(true))) }
        return fields
    }
}
