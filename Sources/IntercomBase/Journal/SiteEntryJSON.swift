import Foundation

/// How a site's journal entry is spelled in JSON (`intercom log --json` at a desk of a site, the
/// outbox's lines): the desk's entry, then the site's fields. One spelling for the engine's
/// `SiteJournalEntry` and the light binary's read of the store (IntercomPostgres), which has no engine.
public enum SiteEntryJSON {
    /// Who took a forked call: answered at a desk by an operator, or escalated to a target.
    public static func claim(kind: String, desk: String, operatorName: String?, target: String?, at: Date) -> JSONValue {
        .object([("kind", .string(kind)), ("desk", .string(desk)), ("operator", .optional(operatorName)),
                 ("target", .optional(target)), ("at", .string(RFC3339.string(at)))])
    }

    /// The desk's entry as its own journal prints it, without its row id, with the site's fields after it.
    public static func entry(_ entry: JournalEntry, siteID: UUID, desk: String, operatorName: String?, callID: String?,
                             rangAt: [String], claim: JSONValue?, missed: Bool) -> JSONValue {
        guard case .object(var fields) = entry.json else { return entry.json }
        fields.removeAll { $0.0 == "id" || $0.0 == "missed" }
        fields.insert(("site_id", .string(siteID.uuidString)), at: 0)
        // `desk_operator`: an operator event's own `operator` is the SmartYard server's.
        fields += [("desk", .string(desk)), ("desk_operator", .optional(operatorName)), ("site_call", .optional(callID)),
                   ("rang_at", .array(rangAt.map { .string($0) })), ("claim", claim ?? .null), ("missed", .bool(missed))]
        return .object(fields)
    }
}
