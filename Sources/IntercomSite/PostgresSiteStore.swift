import Foundation
import IntercomBase
import IntercomCore
import IntercomPostgres
import Synchronization

/// The site's store on PostgreSQL (`SiteStore`): one connection for requests, one that LISTENs.
/// Every write that others must hear of sends `NOTIFY intercom_site, 'KIND:ID'` in the same
/// statement (so it goes out on commit, and only if the row changed); every desk's feed reads the
/// row again and hands it to its streams. A server that cannot be reached is `SiteStoreError.unreachable`.
public final class PostgresSiteStore: SiteStore {
    let connection: PostgresConnection
    private let listener: PostgresConnection
    private let feeds = SiteFeeds()
    private let reader = Mutex<Task<Void, Never>?>(nil)
    private let schema: SiteSchema
    /// Whether this store has migrated the schema (or found it current) since it was made.
    private let schemaReady = Mutex(false)

    /// Connects lazily: nothing is sent until the first request, which migrates the schema first (a
    /// desk that started while the store was down creates or upgrades it when the store answers).
    public init(target: PostgresTarget, schema: SiteSchema = .product) {
        connection = PostgresConnection(target: target)
        listener = PostgresConnection(target: target)
        self.schema = schema
    }

    /// Migrates the schema (refusing a newer one) and starts the change feed.
    public static func open(target: PostgresTarget, schema: SiteSchema = .product) async throws(PostgresError) -> PostgresSiteStore {
        let store = PostgresSiteStore(target: target, schema: schema)
        do {
            try await schema.migrate(store.connection)
        } catch {
            await store.close()
            throw error
        }
        store.schemaReady.withLock { $0 = true }
        await store.startFeed()
        return store
    }

    /// Migrates once before the first request that reaches the store; a newer schema throws (not `unreachable`).
    func prepared() async throws {
        guard !schemaReady.withLock({ $0 }) else { return }
        do {
            try await schema.migrate(connection)
        } catch {
            throw SiteSQL.engineError(error)
        }
        schemaReady.withLock { $0 = true }
    }

    /// LISTENs (returning once the server listens, or once it could not: then it tries again every
    /// second) and reads NOTIFYs from then on; the store owns the task, `close` ends it.
    public func startFeed() async {
        let (listener, connection, feeds) = (self.listener, self.connection, self.feeds)
        try? await listener.listen(SiteSQL.channel)
        let task = Task {
            for await notice in listener.notices {
                guard case .notification(_, let payload) = notice,
                      let change = try? await SiteFeedRead.change(payload, on: connection) else { continue }
                feeds.yield(change)
            }
        }
        reader.withLock { $0 = task }
    }

    /// Ends the feed's streams and both connections; returns when they are gone.
    public func close() async {
        let task = reader.withLock { task in
            defer { task = nil }
            return task
        }
        await listener.close()
        task?.cancel()
        await task?.value
        feeds.finish()
        await connection.close()
    }

    public func ping() async throws {
        try await run("SELECT 1")
    }

    public func changes() -> AsyncStream<SiteChange> { feeds.stream() }

    // MARK: desks

    /// Told to the other desks only when the desk joins or its duty, operator or call changed: a beat
    /// that only moves `last_seen` would make every desk read the row again for nothing, which made a
    /// site's desk idle half as hot again as a lone one (BENCHMARKS.md). Online is read from the desk's
    /// lock (taken here, `SiteSQL.holdDesk`) and `last_seen` by whoever asks. `before` sees the row as
    /// it was (one snapshot for the statement).
    @discardableResult
    public func heartbeat(_ presence: DeskPresence) async throws -> Bool {
        try await run("""
            WITH before AS (
                SELECT on_duty, operator, current_call FROM site_desks WHERE name = $1),
            kept AS (
                INSERT INTO site_desks (name, on_duty, operator, current_call, last_seen)
                VALUES ($1, $2::boolean, $3, $4, to_timestamp($5::float8))
                ON CONFLICT (name) DO UPDATE SET on_duty = EXCLUDED.on_duty, operator = EXCLUDED.operator,
                    current_call = EXCLUDED.current_call, last_seen = EXCLUDED.last_seen
                RETURNING name)
            SELECT \(SiteSQL.holdDesk) AS held,
                   (SELECT pg_notify('\(SiteSQL.channel)', 'desk:' || name) FROM kept
                    WHERE NOT EXISTS (SELECT 1 FROM before WHERE on_duty = $2::boolean AND operator IS NOT DISTINCT FROM $3
                                      AND current_call IS NOT DISTINCT FROM $4)) AS told
            """, [presence.desk, SiteSQL.flag(presence.onDuty), presence.operatorName, presence.currentCall?.callID,
                  SiteSQL.time(presence.at)]).value("held") == "t"
    }

    /// The beat between changes moves `last_seen` only, run by the connection's own thread
    /// (`PostgresConnection.repeating`): the engine is not woken while the store answers.
    public func keepBeating(_ presence: DeskPresence, every period: Duration, clock: any EngineClock) async throws {
        try await prepared()
        let desk = presence.desk
        do {
            try await connection.repeating(every: period, """
                WITH seen AS (UPDATE site_desks SET last_seen = to_timestamp($2::float8) WHERE name = $1 RETURNING name)
                SELECT \(SiteSQL.holdDesk) AS held, (SELECT count(*) FROM seen) AS seen
                """) {
                [desk, SiteSQL.time(Date())]
            }
        } catch {
            throw SiteSQL.engineError(error)
        }
    }

    public func desks() async throws -> [DeskPresence] {
        SiteFeedRead.desks(try await run(SiteFeedRead.desksQuery + " ORDER BY name"))
    }

    // MARK: switches

    /// Later wins: a change older than the one kept for its panel and kind is not kept (and not told).
    public func publish(_ change: SiteSwitchChange) async throws {
        try await run("""
            WITH kept AS (
                INSERT INTO site_switches (panel, kind, value, desk, operator, at)
                SELECT $1, $2, $3, $4, $5, to_timestamp($6::float8)
                WHERE NOT EXISTS (SELECT 1 FROM site_switches WHERE lower(panel) = lower($1) AND kind = $2
                                  AND at > to_timestamp($6::float8))
                RETURNING id)
            SELECT pg_notify('\(SiteSQL.channel)', 'switch:' || id) FROM kept
            """, [change.panel, change.kind.rawValue, change.value, change.desk, change.operatorName, SiteSQL.time(change.at)])
    }

    public func switches() async throws -> [SiteSwitchChange] {
        SiteFeedRead.switches(try await run("""
            SELECT * FROM (SELECT DISTINCT ON (lower(panel), kind) \(SiteFeedRead.switchColumns) FROM site_switches
                           ORDER BY lower(panel), kind, at DESC, id DESC) AS latest
            ORDER BY panel, kind
            """))
    }

    /// One statement, its connection errors as `SiteStoreError.unreachable`.
    @discardableResult
    func run(_ sql: String, _ parameters: [String?] = []) async throws -> PostgresRows {
        try await prepared()
        do {
            return try await connection.query(sql, parameters)
        } catch {
            throw SiteSQL.engineError(error)
        }
    }
}

/// The streams `changes()` gave out, each fed every change.
final class SiteFeeds: Sendable {
    private let streams = Mutex<[UUID: AsyncStream<SiteChange>.Continuation]>([:])

    func stream() -> AsyncStream<SiteChange> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<SiteChange>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        continuation.onTermination = { [weak self] _ in _ = self?.streams.withLock { $0.removeValue(forKey: id) } }
        streams.withLock { $0[id] = continuation }
        return stream
    }

    func yield(_ change: SiteChange) {
        for stream in streams.withLock({ Array($0.values) }) { stream.yield(change) }
    }

    func finish() {
        let all = streams.withLock { all in
            defer { all = [:] }
            return Array(all.values)
        }
        for stream in all { stream.finish() }
    }
}
