/// The site's tables, versioned. The product owns the list; each desk migrates at start (and
/// `intercom site init` by hand) in one transaction, under an advisory lock so two desks starting
/// together do not both migrate. A schema newer than this program knows is refused: an old desk must
/// not write rows a newer one reads differently.
public struct SiteSchema: Sendable {
    /// One step: the statements that take the schema from `version - 1` to `version`.
    public struct Migration: Sendable {
        public let version: Int
        public let statements: [String]

        public init(version: Int, statements: [String]) {
            self.version = version
            self.statements = statements
        }
    }

    /// What `migrate` did.
    public struct Outcome: Sendable, Equatable {
        public let from: Int
        public let to: Int
    }

    public let migrations: [Migration]

    /// The product's list (`SiteSchema.product`); tests add steps to try an upgrade.
    public init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    public static let product = SiteSchema(migrations: [SiteSchemaVersion1.migration, SiteSchemaVersion2.migration])

    /// The newest version this program knows.
    public var latest: Int { migrations.last?.version ?? 0 }

    /// The key of the advisory lock migrations take (any constant of ours; "intercom" in ASCII).
    static let lockKey = "7597130453686031981"

    /// Brings the database to `latest` in one transaction; refuses a newer one.
    @discardableResult
    public func migrate(_ connection: PostgresConnection) async throws(PostgresError) -> Outcome {
        let migrations = self.migrations
        let latest = self.latest
        return try await connection.transaction { transaction throws(PostgresError) in
            try transaction.query("SELECT pg_advisory_xact_lock($1::bigint)", [Self.lockKey])
            try transaction.query("CREATE TABLE IF NOT EXISTS site_schema (version integer NOT NULL, "
                + "migrated_at timestamptz NOT NULL DEFAULT now())")
            let current = try Self.version(in: transaction)
            if current > latest { throw Self.tooNew(current, latest: latest) }
            for migration in migrations where migration.version > current {
                for statement in migration.statements { try transaction.query(statement) }
            }
            if latest > current {
                try transaction.query("DELETE FROM site_schema")
                try transaction.query("INSERT INTO site_schema (version) VALUES ($1::integer)", [String(latest)])
            }
            return Outcome(from: current, to: max(current, latest))
        }
    }

    /// The database's version without changing it (0: no schema yet); a newer one than this program's throws.
    public func check(_ connection: PostgresConnection) async throws(PostgresError) -> Int {
        let latest = self.latest
        let exists = try await connection.query("SELECT to_regclass('site_schema') IS NOT NULL AS present")
        guard exists.value("present") == "t" else { return 0 }
        let rows = try await connection.query("SELECT coalesce(max(version), 0) AS version FROM site_schema")
        let current = Int(rows.value("version") ?? "") ?? 0
        if current > latest { throw Self.tooNew(current, latest: latest) }
        return current
    }

    /// For a reader that must not change the site: the database at exactly this program's version,
    /// else a `.schema` error saying what to run (no schema yet or an older one: `site init`; a newer one: upgrade).
    public func require(_ connection: PostgresConnection) async throws(PostgresError) {
        let current = try await check(connection)
        guard current < latest else { return }
        throw PostgresError(.schema, current == 0
            ? "the site has no schema yet: run `intercom site init` (or start a desk's daemon), which creates it"
            : "the site's schema is version \(current), older than this intercom's \(latest): run `intercom site init` "
                + "(or start a desk's daemon), which migrates it")
    }

    static func version(in transaction: PostgresTransaction) throws(PostgresError) -> Int {
        let rows = try transaction.query("SELECT coalesce(max(version), 0) AS version FROM site_schema")
        return Int(rows.value("version") ?? "") ?? 0
    }

    static func tooNew(_ version: Int, latest: Int) -> PostgresError {
        PostgresError(.schema, "the site's schema is version \(version); this intercom knows up to \(latest): "
            + "upgrade intercom on this desk")
    }
}
