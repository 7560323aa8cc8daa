import Foundation
import IntercomCore
import IntercomPostgres
import IntercomTestSupport
import Synchronization

/// What a stream brought (a connection's notices, a store's changes), kept for the test to look at:
/// one reader for the stream's life (an AsyncStream ends when its reader is cancelled).
final class StreamRecorder<Element: Sendable>: Sendable {
    private final class Heard: Sendable {
        let list = Mutex<[(element: Element, at: ContinuousClock.Instant)]>([])
    }

    private let heard = Heard()
    private let reader: Task<Void, Never>

    init(_ stream: AsyncStream<Element>) {
        reader = Task { [heard] in
            for await element in stream { heard.list.withLock { $0.append((element, .now)) } }
        }
    }

    var elements: [Element] { heard.list.withLock { $0.map(\.element) } }

    /// When the first element matching `predicate` arrived.
    func arrival(of predicate: (Element) -> Bool) -> ContinuousClock.Instant? {
        heard.list.withLock { list in list.first { predicate($0.element) }?.at }
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

