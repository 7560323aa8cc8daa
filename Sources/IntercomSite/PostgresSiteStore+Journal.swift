import Foundation
import IntercomBase
import IntercomCore
import IntercomPostgres

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
        try await prepared()
        do {
            return try await SiteJournalRead.records(query, on: connection).map(SiteJournalEntry.init)
        } catch {
            throw SiteSQL.engineError(error)
        }
    }

    @discardableResult
    public func markHandled(_ id: UUID, by who: String, at time: Date) async throws -> SiteJournalEntry {
        try await run("""
            WITH handled AS (
                UPDATE site_journal SET handled_by = $2, handled_at = to_timestamp($3::float8) WHERE id = $1::uuid RETURNING id)
            SELECT pg_notify('\(SiteSQL.channel)', 'handled:' || id) FROM handled
            """, [id.uuidString, who, SiteSQL.time(time)])
        let rows = try await run("SELECT \(SiteJournalRead.columns) FROM site_journal WHERE id = $1::uuid", [id.uuidString])
        guard let entry = SiteJournalRead.record(rows, at: 0).map(SiteJournalEntry.init) else { throw SiteStoreError.noEntry(id) }
        return entry
    }

    private static func parameters(_ entry: SiteJournalEntry) -> [String?] {
        [entry.id.uuidString, entry.desk, entry.operatorName, SiteSQL.time(entry.entry.time), entry.entry.kind.rawValue,
         entry.entry.panel, SiteSQL.flag(entry.missed), entry.callKey?.callID,
         JSONValue.array(entry.rangAt.map(JSONValue.string)).encoded]
            + SiteSQL.claimParameters(entry.claim)
            + [entry.entry.json.encoded, entry.entry.handledBy, SiteSQL.time(orNull: entry.entry.handledAt)]
    }
}
