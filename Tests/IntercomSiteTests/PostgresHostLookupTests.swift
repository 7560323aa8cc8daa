import Foundation
import IntercomBase
@testable import IntercomPostgres
import Synchronization
import Testing

/// The URI's host names are looked up before libpq connects, bounded by the request's deadline
/// (`[site] timeout`), and handed to libpq as `hostaddr` beside the names: a resolver that never
/// answers fails the connect in time instead of holding the connection's thread.
@Suite struct PostgresHostLookupTests {
    @Test func aResolverThatNeverAnswersFailsTheConnectAtTheDeadlineNamingTheHost() async throws {
        let silent = HostResolver { _, _ in }
        let target = PostgresTarget(url: "postgresql://intercom@db.example/site", timeout: .seconds(1), resolver: silent)
        let connection = PostgresConnection(target: target)
        let asked = ContinuousClock.now
        do throws(PostgresError) {
            try await connection.query("SELECT 1")
            Issue.record("a connect whose name never resolved passed")
        } catch {
            #expect(error.kind == .connect, "\(error)")
            #expect(error.message == "cannot reach the site's database: looking up its host 'db.example' did not answer "
                + "within 1 s (its [site] timeout)", "\(error)")
        }
        let took = ContinuousClock.now - asked
        await connection.close()
        #expect(took >= .milliseconds(900) && took < .seconds(3), "the connect failed after \(took)")
    }

    @Test func aLookupStillRunningIsJoinedByTheNextConnectNotStartedAgain() throws {
        let started = Mutex(0)
        let answer = Mutex<(@Sendable (Result<[String], NameLookup.Failure>) -> Void)?>(nil)
        let resolver = HostResolver { _, reply in
            started.withLock { $0 += 1 }
            answer.withLock { $0 = reply }
        }
        let session = PostgresSession(target: PostgresTarget(url: "postgresql://db.example:5433/x", timeout: .seconds(1),
                                                             resolver: resolver), deliver: { _ in })
        session.deadline = .now
        #expect(throws: PostgresError.self) { try session.connectKeywords() }
        #expect(throws: PostgresError.self) { try session.connectKeywords() }
        #expect(started.withLock { $0 } == 1)
        // The answer comes late: the next connect takes it.
        answer.withLock { $0 }?(.success(["192.0.2.7", "2001:db8::7"]))
        let keywords = try session.connectKeywords()
        #expect(keywords.suffix(3).map { "\($0.0)=\($0.1)" }
            == ["host=db.example,db.example", "hostaddr=192.0.2.7,2001:db8::7", "port=5433,5433"])
        #expect(started.withLock { $0 } == 1)
    }

    @Test func aNameThatDoesNotResolveIsLeftOutWhileAnotherHostRemains() throws {
        let resolver = HostResolver { host, reply in
            reply(host == "gone.example" ? .failure(NameLookup.Failure(reason: "Name or service not known")) : .success(["192.0.2.9"]))
        }
        func keywords(_ url: String) throws(PostgresError) -> [String] {
            let session = PostgresSession(target: PostgresTarget(url: url, timeout: .seconds(1), resolver: resolver), deliver: { _ in })
            session.deadline = .now + .seconds(1)
            return try session.connectKeywords().map { "\($0.0)=\($0.1)" }
        }
        #expect(try keywords("postgresql://gone.example,db.example:6000/x").suffix(3)
            == ["host=db.example", "hostaddr=192.0.2.9", "port=6000"])
        do throws(PostgresError) {
            _ = try keywords("postgresql://gone.example/x")
            Issue.record("a name that does not resolve connected")
        } catch {
            #expect(error.message == "cannot reach the site's database: its host 'gone.example' has no address "
                + "(Name or service not known)")
        }
    }

    @Test func numericHostsAndSocketsAreNotLookedUpAndStayBesideNames() throws {
        let asked = Mutex<[String]>([])
        let resolver = HostResolver { host, reply in
            asked.withLock { $0.append(host) }
            reply(.success(["192.0.2.1"]))
        }
        func keywords(_ url: String) throws -> [String] {
            let session = PostgresSession(target: PostgresTarget(url: url, timeout: .seconds(1), resolver: resolver), deliver: { _ in })
            session.deadline = .now + .seconds(1)
            return try session.connectKeywords().map { "\($0.0)=\($0.1)" }
        }
        for url in ["postgresql://127.0.0.1:5432/x", "postgresql://[::1]/x", "postgresql:///x?host=/run/postgresql",
                    "postgresql:///x", "postgresql://db.example/x?hostaddr=192.0.2.3"] {
            #expect(try keywords(url).last == "dbname=\(url)", "\(url)")
        }
        #expect(asked.withLock { $0 }.isEmpty)
        #expect(try keywords("postgresql://10.0.0.1:5433,db.example:5434/x").suffix(3)
            == ["host=10.0.0.1,db.example", "hostaddr=,192.0.2.1", "port=5433,5434"])
        #expect(try keywords("postgresql:///x?host=db.example,/run/postgresql&port=5433").suffix(3)
            == ["host=db.example,/run/postgresql", "hostaddr=192.0.2.1,", "port=5433,5433"])
        #expect(asked.withLock { $0 } == ["db.example", "db.example"])
    }
}
