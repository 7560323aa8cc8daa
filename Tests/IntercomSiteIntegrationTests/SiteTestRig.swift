import Foundation
import IntercomCore
import IntercomSite
import IntercomTestSupport
import Synchronization

/// What a listening connection heard, kept for the test to look at (one reader of `notices` for the
/// connection's life: an AsyncStream ends when its reader is cancelled).
final class NoticeRecorder: Sendable {
    private final class Heard: Sendable {
        let list = Mutex<[(notice: PostgresNotice, at: ContinuousClock.Instant)]>([])
    }

    private let heard = Heard()
    private let reader: Task<Void, Never>

    init(_ connection: PostgresConnection) {
        reader = Task { [heard] in
            for await notice in connection.notices { heard.list.withLock { $0.append((notice, .now)) } }
        }
    }

    var notices: [PostgresNotice] { heard.list.withLock { $0.map(\.notice) } }

    /// When the first notice matching `predicate` arrived.
    func arrival(of predicate: (PostgresNotice) -> Bool) -> ContinuousClock.Instant? {
        heard.list.withLock { list in list.first { predicate($0.notice) }?.at }
    }

    func stop() async {
        reader.cancel()
        await reader.value
    }
}

/// A private server with one fresh database per test, and the connections a test opened: all closed,
/// the server stopped and its folder removed before the test returns.
final class SiteTestRig: @unchecked Sendable {
    let server: PostgresServer
    let database: String
    private var opened: [PostgresConnection] = []
    private var cleanups: [() async -> Void] = []

    private init(server: PostgresServer, database: String) {
        self.server = server
        self.database = database
    }

    static func with<T>(_ body: (SiteTestRig) async throws -> T) async throws -> T {
        let server = try await PostgresServer()
        try await server.start()
        let rig = SiteTestRig(server: server, database: try await server.createDatabase("site"))
        return try await withCleanup({
            for cleanup in rig.cleanups.reversed() { await cleanup() }
            for connection in rig.opened { await connection.close() }
            await server.remove()
        }) {
            try await body(rig)
        }
    }

    /// Runs when the test ends, before the connections close and the server stops (a store's `close`).
    func onCleanup(_ cleanup: @escaping () async -> Void) {
        cleanups.append(cleanup)
    }

    /// A connection over the unix socket (no password).
    func connect() -> PostgresConnection {
        connect(PostgresTarget(url: server.socketURL(database)))
    }

    func connect(_ target: PostgresTarget) -> PostgresConnection {
        let connection = PostgresConnection(target: target)
        opened.append(connection)
        return connection
    }
}

/// What a store's `changes()` stream brought, kept for the test (one reader for the stream's life).
final class ChangeRecorder: Sendable {
    private final class Heard: Sendable {
        let list = Mutex<[(change: SiteChange, at: ContinuousClock.Instant)]>([])
    }

    private let heard = Heard()
    private let reader: Task<Void, Never>

    init(_ stream: AsyncStream<SiteChange>) {
        reader = Task { [heard] in
            for await change in stream { heard.list.withLock { $0.append((change, .now)) } }
        }
    }

    var changes: [SiteChange] { heard.list.withLock { $0.map(\.change) } }

    func arrival(of predicate: (SiteChange) -> Bool) -> ContinuousClock.Instant? {
        heard.list.withLock { list in list.first { predicate($0.change) }?.at }
    }

    func stop() async {
        reader.cancel()
        await reader.value
    }
}
