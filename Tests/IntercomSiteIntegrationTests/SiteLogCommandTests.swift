import Foundation
import IntercomBase
import IntercomCore
@testable import IntercomPostgres
@testable import IntercomSite
import IntercomTestSupport
import Testing

/// `intercom log` at a desk of a site, as a user runs it: the built binary shows the whole site's
/// journal from a real PostgreSQL (desk and operator columns, `--desk` narrowing, `--json` with
/// `desk`), and this desk's own journal, said on stderr, when the store is down.
@Suite(.serialized) struct SiteLogCommandTests {
    static let t0 = Date(timeIntervalSince1970: 1_765_000_000)

    static func entry(_ outcome: String, answeredBy: String?) throws -> JournalEntry {
        try #require(JournalEntry(json: .object([
            ("kind", .string("call")), ("time", .string(RFC3339.string(Self.t0))), ("panel", .string("entrance")),
            ("call", .string("c1")), ("from", .string("1001")), ("ended", .string(RFC3339.string(Self.t0 + 5))),
            ("outcome", .string(outcome)), ("duration_s", .number(5)), ("answered_by", .optional(answeredBy))])))
    }

    @Test func logAtADeskOfASiteShowsEveryDesksEntriesAndItsOwnWhenTheStoreIsDown() async throws {
        try await SiteTestRig.with { rig in
            let store = try await PostgresSiteStore.open(target: PostgresTarget(url: rig.server.socketURL(rig.database)))
            rig.onCleanup { await store.close() }
            try await store.append([
                SiteJournalEntry(id: UUID(), desk: "lobby", operatorName: nil, entry: try Self.entry("missed", answeredBy: nil)),
                SiteJournalEntry(id: UUID(), desk: "garage", operatorName: "anna", entry: try Self.entry("hangup", answeredBy: "user")),
            ])
            let folder = try TestDirectory(prefix: "site-log")
            let config = try IntercomBinary.writeConfig("[site]\nurl = \(rig.server.socketURL(rig.database))\ndesk = lobby\n", in: folder)
            let json = try await IntercomBinary.run(["log", "--json", "--config", config.path], in: folder)
            #expect(json.status == 0, "\(json.stderr)")
            let rows = json.stdout.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }
            #expect(rows.map { $0["desk"]?.stringValue } == ["lobby", "garage"], "\(json.stdout)")
            #expect(rows.map { $0["desk_operator"]?.stringValue } == [nil, "anna"])
            let garage = try await IntercomBinary.run(["log", "--json", "--desk", "GARAGE", "--config", config.path], in: folder)
            #expect(garage.stdout.split(separator: "\n").count == 1 && garage.stdout.contains("\"garage\""), "\(garage.stdout)")
            let table = try await IntercomBinary.run(["log", "--config", config.path], in: folder)
            #expect(table.stdout.contains("DESK") && table.stdout.contains("OPERATOR") && table.stdout.contains("anna"), "\(table.stdout)")
            await store.close()
            await rig.server.stop()
            let down = try await IntercomBinary.run(["log", "--json", "--config", config.path], in: folder)
            #expect(down.status == 0, "\(down.stderr)")
            #expect(down.stderr.hasPrefix("intercom: the site's journal cannot be read"), "\(down.stderr)")
            #expect(!down.stdout.contains("garage"))
        }
    }

    /// The light `log` reads the site and never changes it: a site with no schema, or one newer than this
    /// program's, is said in one line with what to run (exit 65), and the schema is left as it was.
    @Test func logNeverMigratesAndSaysWhatToRunWhenTheSchemaIsNotThisIntercoms() async throws {
        try await SiteTestRig.with { rig in
            let folder = try TestDirectory(prefix: "site-log-schema")
            let config = try IntercomBinary.writeConfig("[site]\nurl = \(rig.server.socketURL(rig.database))\ndesk = lobby\n", in: folder)
            let empty = try await IntercomBinary.run(["log", "--config", config.path], in: folder)
            #expect(empty.status == 65 && empty.stderr.contains("intercom site init"), "\(empty.stderr)")
            #expect(empty.stderr.split(separator: "\n").count == 1 && empty.stdout.isEmpty, "\(empty.stderr)\(empty.stdout)")
            #expect(try await rig.server.psql("SELECT to_regclass('site_journal') IS NULL", database: rig.database) == "t")
            try await SiteSchema.product.migrate(rig.connect())
            try await rig.server.psql("UPDATE site_schema SET version = 99", database: rig.database)
            let newer = try await IntercomBinary.run(["log", "--config", config.path], in: folder)
            #expect(newer.status == 65 && newer.stderr.contains("version 99") && newer.stderr.contains("upgrade"), "\(newer.stderr)")
            #expect(newer.stderr.split(separator: "\n").count == 1, "\(newer.stderr)")
        }
    }

    @Test func withoutASiteDeskIsAUsageErrorAndTheLogIsTheDesksOwn() async throws {
        let folder = try TestDirectory(prefix: "site-log-lone")
        let config = try IntercomBinary.writeConfig("", in: folder)
        let desk = try await IntercomBinary.run(["log", "--desk", "lobby", "--config", config.path], in: folder)
        #expect(desk.status == 64 && desk.stderr.contains("--desk") && desk.stderr.contains("[site]"), "\(desk.stderr)")
        let plain = try await IntercomBinary.run(["log", "--json", "--local", "--config", config.path], in: folder)
        #expect(plain.status == 0 && !plain.stderr.contains("site"), "\(plain.stderr)")
    }
}
