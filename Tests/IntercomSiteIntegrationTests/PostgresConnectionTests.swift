import Foundation
import IntercomBase
@testable import IntercomPostgres
import IntercomTestSupport
import Testing

/// The connection on a real PostgreSQL 15: bound parameters, NOTIFY to a second connection within a
/// second, the server stopped and started again under it, and a password from `password_file` over TCP
/// (by address and by name).
@Suite(.serialized) struct PostgresConnectionTests {
    @Test func parametersAreBoundNeverSpliced() async throws {
        try await SiteTestRig.with { rig in
            let connection = rig.connect()
            try await connection.query("CREATE TABLE t (v text)")
            let hostile = "x'); DROP TABLE t; --\u{00e9}"
            try await connection.query("INSERT INTO t (v) VALUES ($1)", [hostile])
            let rows = try await connection.query("SELECT v, NULL::text AS nothing FROM t WHERE v = $1", [hostile])
            #expect(rows.value("v") == hostile && rows.value("nothing") == nil && rows.count == 1)
            do throws(PostgresError) {
                try await connection.query("INSERT INTO no_such_table VALUES ($1)", ["1"])
                Issue.record("an insert into a missing table passed")
            } catch {
                #expect(error.kind == .statement && error.sqlState == "42P01" && !error.message.contains("\n"))
            }
            // A failed statement does not spoil the connection.
            #expect(try await connection.query("SELECT count(*) AS n FROM t").value("n") == "1")
        }
    }

    /// A statement repeated by the connection's thread: it runs every period while requests go on
    /// beside it, a run that fails ends it with the error, and a cancelled caller returns.
    @Test func aRepeatedStatementRunsUntilItFailsOrItsCallerStops() async throws {
        try await SiteTestRig.with { rig in
            let connection = rig.connect()
            try await connection.query("CREATE TABLE beats (n int)")
            try await connection.query("INSERT INTO beats VALUES (0)")
            let beating = Task { try await connection.repeating(every: .milliseconds(20), "UPDATE beats SET n = n + 1") { [] } }
            try await TestPatience.poll("five beats") {
                let n = try? await connection.query("SELECT n FROM beats").value("n")
                return (n.flatMap { $0 }.flatMap { Int($0) } ?? 0) >= 5
            }
            beating.cancel()
            try await beating.value
            let failing = Task { try await connection.repeating(every: .milliseconds(20), "SELECT 1 / n FROM beats WHERE n = $1") { ["0"] } }
            try await connection.query("UPDATE beats SET n = 0")
            do {
                try await failing.value
                Issue.record("a failing statement went on repeating")
            } catch let error as PostgresError {
                #expect(error.kind == .statement && error.message.contains("division by zero"), "\(error)")
            }
        }
    }

    @Test func notifyReachesASecondConnectionWithinASecond() async throws {
        try await SiteTestRig.with { rig in
            let listener = rig.connect()
            let recorder = StreamRecorder(listener.notices)
            try await listener.listen("intercom_site")
            let writer = rig.connect()
            let sent = ContinuousClock.now
            try await writer.query("SELECT pg_notify('intercom_site', $1)", ["switch:42"])
            let expected = PostgresNotice.notification(channel: "intercom_site", payload: "switch:42")
            try await TestPatience.poll("the NOTIFY reaches the listener") { recorder.elements.contains(expected) }
            let took = try #require(recorder.arrival { $0 == expected }) - sent
            #expect(took <= .seconds(1), "NOTIFY took \(took)")
            await recorder.stop()
        }
    }

    @Test func theServerGoesAwayAndComesBack() async throws {
        try await SiteTestRig.with { rig in
            let connection = rig.connect()
            let listener = rig.connect()
            let recorder = StreamRecorder(listener.notices)
            try await listener.listen("intercom_site")
            #expect(try await connection.query("SELECT 1 AS one").value("one") == "1")
            await rig.server.stop()
            do throws(PostgresError) {
                try await connection.query("SELECT 1")
                Issue.record("a query with the server stopped passed")
            } catch {
                #expect(error.kind == .lost || error.kind == .connect, "\(error)")
                #expect(!error.message.contains("\n"))
            }
            try await TestPatience.poll("the listener says it lost the server") {
                recorder.elements.contains { if case .lost = $0 { true } else { false } }
            }
            try await rig.server.start()
            #expect(try await connection.query("SELECT 2 AS two").value("two") == "2")
            try await TestPatience.poll("the listener is back") { recorder.elements.contains(.resumed) }
            try await connection.query("SELECT pg_notify('intercom_site', $1)", ["desk:lobby"])
            try await TestPatience.poll("a NOTIFY after the return arrives") {
                recorder.elements.contains(.notification(channel: "intercom_site", payload: "desk:lobby"))
            }
            await recorder.stop()
        }
    }

    /// Also by the name `localhost`: looked up before libpq connects (its `::1` refused, the server
    /// listens on 127.0.0.1 only, so libpq goes on to the next address, as it would by itself).
    @Test func aPasswordFromPasswordFileOverTCPByAddressAndByName() async throws {
        try await SiteTestRig.with { rig in
            let folder = try TestDirectory(prefix: "site-password")
            let good = try folder.write(rig.server.password + "\n", to: "good")
            let bad = try folder.write("wrong\n", to: "bad")
            for file in [good, bad] {
                try FileManager.default.setAttributes([.posixPermissions: Int16(0o600)], ofItemAtPath: file.path)
            }
            let url = rig.server.tcpURL(rig.database)
            let connection = rig.connect(try PostgresTarget(settings: SiteConfig(url: url, passwordFile: good.path)))
            #expect(try await connection.query("SELECT current_user AS who").value("who") == "intercom")
            let byName = url.replacingOccurrences(of: "@127.0.0.1:", with: "@localhost:")
            let named = rig.connect(try PostgresTarget(settings: SiteConfig(url: byName, passwordFile: good.path)))
            #expect(try await named.query("SELECT host(inet_server_addr()) AS at").value("at") == "127.0.0.1")
            let refused = rig.connect(try PostgresTarget(settings: SiteConfig(url: url, passwordFile: bad.path)))
            do throws(PostgresError) {
                try await refused.query("SELECT 1")
                Issue.record("a wrong password was accepted")
            } catch {
                #expect(error.kind == .connect && error.message.contains("password authentication failed"), "\(error)")
                #expect(!error.message.contains("\n") && !error.message.contains("wrong"))
            }
        }
    }
}
