import Foundation
import IntercomBase
@testable import IntercomPostgres
import IntercomTestSupport
import Testing

/// A store that is connected but silent (its processes stopped with SIGSTOP: sockets open, nothing
/// answers, no reset) fails each request at its `[site] timeout` instead of holding the desk, and
/// the connection serves again once the server answers.
@Suite(.serialized) struct PostgresDeadlineTests {
    @Test func aFrozenServerFailsTheRequestAtItsDeadlineAndServesOnceItAnswers() async throws {
        try await SiteTestRig.with { rig in
            let folder = try TestDirectory(prefix: "site-deadline")
            let password = try folder.write(rig.server.password + "\n", to: "password")
            try FileManager.default.setAttributes([.posixPermissions: Int16(0o600)], ofItemAtPath: password.path)
            let site = SiteConfig(url: rig.server.tcpURL(rig.database), passwordFile: password.path, timeout: .seconds(1))
            let connection = rig.connect(try PostgresTarget(settings: site))
            let pid = try await connection.query("SELECT pg_backend_pid() AS pid").value("pid")
            let backend = try #require(pid.flatMap { Int32($0) })

            // The connection's backend stops: the statement in flight fails at the deadline, and one
            // queued behind it fails at its own (counted from when it was asked), not a second later.
            try rig.server.freeze([backend])
            async let inFlight: Void = Self.expectTimeout(connection, "the statement on a stopped backend")
            async let queued: Void = Self.expectTimeout(connection, "a statement queued behind it", within: .milliseconds(1900))
            _ = try await (inFlight, queued)
            // The next request connects afresh: a new backend answers while the old one is still stopped.
            try await Self.servesAgain(connection, "the new backend")

            // The whole server stops: the statement, then the connect (TCP is accepted, the handshake never answered).
            try rig.server.freeze()
            try await Self.expectTimeout(connection, "the statement on a stopped server")
            try await Self.expectTimeout(connection, "the connect to a stopped server")
            rig.server.thaw()
            try await Self.servesAgain(connection, "the thawed server")
        }
    }

    /// The connection answers again. Polled: with a 1 s timeout on a loaded machine (four test shards on
    /// two cores), a new backend's fork and SCRAM handshake once took longer than the deadline itself.
    private static func servesAgain(_ connection: PostgresConnection, _ what: String) async throws {
        try await TestPatience.poll("\(what) answers") { (try? await connection.query("SELECT 1 AS one").value("one")) == "1" }
    }

    /// One request fails as `lost` (the engine's unreachable) within the deadline and a little slack.
    private static func expectTimeout(_ connection: PostgresConnection, _ what: String,
                                      within bound: Duration = .seconds(3)) async throws {
        let asked = ContinuousClock.now
        do throws(PostgresError) {
            try await connection.query("SELECT 1")
            Issue.record("\(what) passed")
        } catch {
            #expect(error.kind == .lost || error.kind == .connect, "\(what): \(error)")
            #expect(error.message.contains("did not answer within 1 s"), "\(what): \(error)")
        }
        let took = ContinuousClock.now - asked
        #expect(took >= .milliseconds(900) && took < bound, "\(what) failed after \(took)")
    }
}
