import Foundation
import IntercomBase
import IntercomCore

/// The shared journal: entries by the id their desk made (a replay adds nothing twice), the body as
/// the desk's journal prints it (`log --json`), the columns `entries` filters on beside it.
extension PostgresSiteStore {
    public func append(_ entries: [SiteJournalEntry]) async throws {
        guard !entries.isEmpty else { return }
        let rows = entries.map(Self.parameters)
        try await prepared()
        do {
            try await connection.transaction { transaction throws(PostgresError) in
                for row in rows {
                    try transaction.query("""
                        INSERT INTO site_journal (id, desk, operator, at, kind, panel, missed, call_id, rang_at, claim_kind,
                            claim_desk, claim_operator, claim_target, claim_at, body, handled_by, handled_at)
                        VALUES ($1::uuid, $2, $3, to_timestamp($4::float8), $5, $6, $7::boolean, $8, $9::jsonb, $10, $11, $12,
                            $13, to_timestamp($14::float8), $15::jsonb, $16, to_timestamp($17::float8))
                        ON CONFLICT (id) DO NOTHING
                        """, row)
                }
            }
        } catch {
            throw SiteSQL.engineError(error)
        }
    }

    public func entries(_ query: SiteJournalQuery) async throws -> [SiteJournalEntry] {
        let rows = try await run("""
            SELECT * FROM (
                SELECT id, seq, desk, operator, call_id, rang_at, \(SiteSQL.claimColumns), body, handled_by,
                    extract(epoch from handled_at)::float8 AS handled_at, at
                FROM site_journal
                WHERE ($1::float8 IS NULL OR at >= to_timestamp($1::float8))
                  AND ($2::text IS NULL OR lower(desk) = lower($2)) AND ($3::text IS NULL OR lower(panel) = lower($3))
                  AND (NOT $4::boolean OR missed) AND (NOT $5::boolean OR (missed AND handled_at IS NULL))
                ORDER BY at DESC, seq DESC LIMIT $6::bigint) AS newest
            ORDER BY at, seq
            """, [SiteSQL.time(orNull: query.since), query.desk, query.panel, SiteSQL.flag(query.missedOnly),
                  SiteSQL.flag(query.unhandledOnly), query.limit.map(String.init)])
        return rows.rows.indices.compactMap { Self.entry(rows, at: $0) }
    }

    @discardableResult
    public func markHandled(_ id: UUID, by who: String, at time: Date) async throws -> SiteJournalEntry {
        try await run("""
            WITH handled AS (
                UPDATE site_journal SET handled_by = $2, handled_at = to_timestamp($3::float8) WHERE id = $1::uuid RETURNING id)
            SELECT pg_notify('\(SiteSQL.channel)', 'handled:' || id) FROM handled
            """, [id.uuidString, who, SiteSQL.time(time)])
        let rows = try await run("""
            SELECT id, desk, operator, call_id, rang_at, \(SiteSQL.claimColumns), body, handled_by,
                extract(epoch from handled_at)::float8 AS handled_at
            FROM site_journal WHERE id = $1::uuid
            """, [id.uuidString])
        guard let entry = Self.entry(rows, at: 0) else { throw SiteStoreError.noEntry(id) }
        return entry
    }

    private static func parameters(_ entry: SiteJournalEntry) -> [String?] {
        [entry.id.uuidString, entry.desk, entry.operatorName, SiteSQL.time(entry.entry.time), entry.entry.kind.rawValue,
         entry.entry.panel, SiteSQL.flag(entry.missed), entry.callKey?.callID,
         JSONValue.array(entry.rangAt.map(JSONValue.string)).encoded]
            + SiteSQL.claimParameters(entry.claim)
            + [entry.entry.json.encoded, entry.entry.handledBy, SiteSQL.time(orNull: entry.entry.handledAt)]
    }

    private static func entry(_ rows: PostgresRows, at index: Int) -> SiteJournalEntry? {
        guard let id = rows.value("id", at: index).flatMap(UUID.init(uuidString:)),
              let desk = rows.value("desk", at: index),
              let body = rows.value("body", at: index).flatMap(JSONValue.parse),
              var entry = JournalEntry(json: body) else { return nil }
        entry.id = 0
        entry.handledBy = rows.value("handled_by", at: index)
        entry.handledAt = SiteSQL.date(rows.value("handled_at", at: index))
        var rangAt: [String] = []
        if case .array(let desks)? = rows.value("rang_at", at: index).flatMap(JSONValue.parse) {
            rangAt = desks.compactMap(\.stringValue)
        }
        return SiteJournalEntry(id: id, desk: desk, operatorName: rows.value("operator", at: index),
                                callKey: rows.value("call_id", at: index).map(SiteCallKey.init), rangAt: rangAt,
                                claim: SiteSQL.claim(rows, at: index), entry: entry)
    }
}
