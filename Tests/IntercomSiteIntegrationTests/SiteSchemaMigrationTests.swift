import Foundation
@testable import IntercomPostgres
import IntercomTestSupport
import Testing

/// The schema on a real PostgreSQL 15: created from empty, upgraded from version 1 in one
/// transaction (a failing step leaves nothing behind), and a newer one refused in one line.
@Suite(.serialized) struct SiteSchemaMigrationTests {
    @Test func fromEmptyToTheLatestThenNothingMore() async throws {
        try await SiteTestRig.with { rig in
            let connection = rig.connect()
            #expect(try await SiteSchema.product.check(connection) == 0)
            let first = try await SiteSchema.product.migrate(connection)
            #expect(first == SiteSchema.Outcome(from: 0, to: SiteSchema.product.latest))
            let tables = try await rig.server.psql("SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables "
                + "WHERE schemaname = 'public'", database: rig.database)
            #expect(tables == "site_call_desks,site_calls,site_desks,site_journal,site_schema,site_switches")
            let again = try await SiteSchema.product.migrate(connection)
            #expect(again == SiteSchema.Outcome(from: 1, to: 1))
            #expect(try await rig.server.psql("SELECT count(*) FROM site_schema", database: rig.database) == "1")
        }
    }

    @Test func fromVersionOneInOneTransaction() async throws {
        try await SiteTestRig.with { rig in
            let connection = rig.connect()
            try await SiteSchema.product.migrate(connection)
            try await connection.query("INSERT INTO site_desks (name, on_duty, last_seen) VALUES ($1, true, now())", ["lobby"])
            let second = SiteSchema.Migration(version: 2, statements: ["ALTER TABLE site_desks ADD COLUMN note text"])
            let upgraded = try await SiteSchema(migrations: SiteSchema.product.migrations + [second]).migrate(connection)
            #expect(upgraded == SiteSchema.Outcome(from: 1, to: 2))
            #expect(try await rig.server.psql("SELECT name || coalesce(note, '-') FROM site_desks", database: rig.database) == "lobby-")
            // A step that fails takes the whole upgrade back: no column, the version unchanged.
            let broken = SiteSchema.Migration(version: 3, statements: ["ALTER TABLE site_desks ADD COLUMN extra text",
                                                                       "ALTER TABLE no_such_table ADD COLUMN x text"])
            await #expect(throws: PostgresError.self) {
                try await SiteSchema(migrations: SiteSchema.product.migrations + [second, broken]).migrate(connection)
            }
            #expect(try await rig.server.psql("SELECT max(version) FROM site_schema", database: rig.database) == "2")
            #expect(try await rig.server.psql("SELECT count(*) FROM information_schema.columns WHERE column_name = 'extra'",
                                              database: rig.database) == "0")
        }
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
