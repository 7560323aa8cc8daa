import Foundation
import IntercomBase
@testable import IntercomPostgres
import IntercomTestSupport
import Testing

/// The schema on a real PostgreSQL 15: created from empty, upgraded from version 1 in one
/// transaction (a failing step leaves nothing behind), and a newer one refused in one line.
@Suite(.serialized) struct SiteSchemaMigrationTests {
    @Test func fromEmptyToTheLatestThenNothingMore() async throws {
        try await SiteTestRig.with { rig in
            let connection = rig.connect()
            let latest = SiteSchema.product.latest
            #expect(try await SiteSchema.product.check(connection) == 0)
            let first = try await SiteSchema.product.migrate(connection)
            #expect(first == SiteSchema.Outcome(from: 0, to: latest))
            let tables = try await rig.server.psql("SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables "
                + "WHERE schemaname = 'public'", database: rig.database)
            #expect(tables == "site_call_desks,site_calls,site_desks,site_journal,site_schema,site_switches")
            #expect(try await Self.journalIndexes(rig) == Self.latestJournalIndexes)
            let again = try await SiteSchema.product.migrate(connection)
            #expect(again == SiteSchema.Outcome(from: latest, to: latest))
            #expect(try await rig.server.psql("SELECT count(*) FROM site_schema", database: rig.database) == "1")
        }
    }

    /// Version 1 → 2 keeps the journal and adds the index `--desk` reads by (its plan names it); a
    /// later step that fails takes the whole upgrade back.
    @Test func fromVersionOneInOneTransaction() async throws {
        try await SiteTestRig.with { rig in
            let connection = rig.connect()
            try await SiteSchema(migrations: [SiteSchemaVersion1.migration]).migrate(connection)
            try await connection.query("INSERT INTO site_desks (name, on_duty, last_seen) VALUES ($1, true, now())", ["lobby"])
            // scripts/bench-site.sh's rows, large enough for the planner to choose, where one desk in 100
            // is the garage's: read by the time's index, its newest 50 would be found among 5 000.
            try await connection.query("""
                INSERT INTO site_journal (id, desk, operator, at, kind, panel, missed, body)
                SELECT md5(i::text)::uuid, CASE WHEN i % 100 = 0 THEN 'Garage' ELSE 'lobby' END, NULL, t, 'door', 'entrance', false,
                       jsonb_build_object('id', i, 'kind', 'door', 'time', to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                          'panel', 'entrance', 'door', 'main', 'method', 'http', 'ok', true)
                FROM (SELECT i, now() - i * interval '31.5 seconds' AS t FROM generate_series(1, 30000) AS i) AS rows
                """)
            let upgraded = try await SiteSchema.product.migrate(connection)
            #expect(upgraded == SiteSchema.Outcome(from: 1, to: 2))
            #expect(try await Self.journalIndexes(rig) == Self.latestJournalIndexes)
            #expect(try await rig.server.psql("SELECT name FROM site_desks", database: rig.database) == "lobby")
            try await connection.query("ANALYZE site_journal")
            let garage = SiteJournalQuery(desk: "GARAGE", limit: 50)
            let plan = try await connection.query("EXPLAIN " + SiteJournalRead.recordsStatement, SiteJournalRead.parameters(garage))
            let lines = plan.rows.compactMap { $0.first ?? nil }
            #expect(lines.contains { $0.contains("Index Scan using site_journal_desk on site_journal") }, "\(lines)")
            let read = try await SiteJournalRead.records(garage, on: connection)
            #expect(read.count == 50 && read.allSatisfy { $0.desk == "Garage" })

            let next = SiteSchema.Migration(version: 3, statements: ["ALTER TABLE site_desks ADD COLUMN note text"])
            let broken = SiteSchema.Migration(version: 4, statements: ["ALTER TABLE site_desks ADD COLUMN extra text",
                                                                       "ALTER TABLE no_such_table ADD COLUMN x text"])
            await #expect(throws: PostgresError.self) {
                try await SiteSchema(migrations: SiteSchema.product.migrations + [next, broken]).migrate(connection)
            }
            #expect(try await rig.server.psql("SELECT max(version) FROM site_schema", database: rig.database) == "2")
            #expect(try await rig.server.psql("SELECT count(*) FROM information_schema.columns WHERE column_name IN ('note', 'extra')",
                                              database: rig.database) == "0")
        }
    }

    static let latestJournalIndexes = "site_journal_at,site_journal_desk,site_journal_missed,site_journal_pkey,site_journal_seq_key"

    static func journalIndexes(_ rig: SiteTestRig) async throws -> String {
        try await rig.server.psql("SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes "
            + "WHERE tablename = 'site_journal'", database: rig.database)
    }

    @Test func aNewerSchemaIsRefusedInOneLine() async throws {
        try await SiteTestRig.with { rig in
            let connection = rig.connect()
            try await SiteSchema.product.migrate(connection)
            try await rig.server.psql("UPDATE site_schema SET version = 99", database: rig.database)
            let expected = "the site's schema is version 99; this intercom knows up to \(SiteSchema.product.latest): "
                + "upgrade intercom on this desk"
            for attempt in 0..<2 {
                do throws(PostgresError) {
                    if attempt == 0 { try await SiteSchema.product.migrate(connection) } else {
                        _ = try await SiteSchema.product.check(connection)
                    }
                    Issue.record("a newer schema was accepted")
                } catch {
                    #expect(error.kind == .schema && error.message == expected)
                }
            }
            #expect(try await rig.server.psql("SELECT version FROM site_schema", database: rig.database) == "99")
        }
    }
}
