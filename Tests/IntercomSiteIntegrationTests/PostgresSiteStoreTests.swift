import Foundation
import IntercomBase
import IntercomCore
@testable import IntercomPostgres
@testable import IntercomSite
import IntercomTestSupport
import Testing

/// The SiteStore's rules on a real PostgreSQL 15, two desks (two stores) on one database: switches
/// later-wins and heard at the other desk, one call row per Call-ID with a first-wins claim, the
/// journal idempotent by id, and the store down then back.
@Suite(.serialized) struct PostgresSiteStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_765_000_000)

    static func open(_ rig: SiteTestRig) async throws -> PostgresSiteStore {
        let store = try await PostgresSiteStore.open(target: PostgresTarget(url: rig.server.socketURL(rig.database)))
        rig.onCleanup { await store.close() }
        return store
    }

    @Test func aSwitchAtOneDeskIsHeardAtTheOtherAndTheLaterWins() async throws {
        try await SiteTestRig.with { rig in
            let (a, b) = (try await Self.open(rig), try await Self.open(rig))
            let heard = StreamRecorder(b.changes())
            let on = SiteSwitchChange(panel: "gate", kind: .guest, value: "2026-12-07T20:00:00Z", desk: "A", operatorName: "anna",
                                      at: Self.t0)
            let sent = ContinuousClock.now
            try await a.publish(on)
            try await TestPatience.poll("B hears A's switch") { heard.elements.contains(.switchChanged(on)) }
            let took = try #require(heard.arrival { $0 == .switchChanged(on) }) - sent
            #expect(took <= .seconds(1), "A's switch reached B after \(took)")
            // An older change (an outage's replay) is not kept; a newer one from B is.
            try await b.publish(SiteSwitchChange(panel: "GATE", kind: .guest, value: "off", desk: "B", operatorName: nil,
                                                 at: Self.t0 - 60))
            #expect(try await a.switches() == [on])
            let off = SiteSwitchChange(panel: "gate", kind: .guest, value: "off", desk: "B", operatorName: "boris", at: Self.t0 + 5)
            try await b.publish(off)
            try await b.publish(SiteSwitchChange(panel: "gate", kind: .calls, value: "off", desk: "B", operatorName: nil, at: Self.t0))
            #expect(try await a.switches().map(\.value) == ["off", "off"])
            #expect(try await a.switches().first { $0.kind == .guest } == off)
            await heard.stop()
        }
    }

    /// A beat that only says "still here" is told to no desk (each would read the row again every 2 s
    /// for nothing); joining, and a change of duty, operator or call, are. NOTIFYs arrive in commit
    /// order, so the third beat's arriving first-after the join shows the second was not told.
    @Test func aHeartbeatIsToldOnlyWhenTheDeskJoinsOrChanges() async throws {
        try await SiteTestRig.with { rig in
            let (a, b) = (try await Self.open(rig), try await Self.open(rig))
            let heard = StreamRecorder(b.changes())
            let joined = DeskPresence(desk: "A", onDuty: true, operatorName: "anna", currentCall: nil, at: Self.t0)
            try await a.heartbeat(joined)
            try await TestPatience.poll("B hears A join") { heard.elements.contains { if case .desk = $0 { true } else { false } } }
            try await a.heartbeat(DeskPresence(desk: "A", onDuty: true, operatorName: "anna", currentCall: nil, at: Self.t0 + 2))
            let offDuty = DeskPresence(desk: "A", onDuty: false, operatorName: "anna", currentCall: nil, at: Self.t0 + 4)
            try await a.heartbeat(offDuty)
            // Read back with A's session seen (it holds A's lock).
            var seen = offDuty
            seen.connected = true
            try await TestPatience.poll("B hears A go off duty") { heard.elements.contains(.desk(seen)) }
            let desks = heard.elements.filter { if case .desk = $0 { true } else { false } }
            #expect(desks.count == 2, "\(desks)")
            #expect(try await b.desks() == [seen])
            await heard.stop()
        }
    }

    /// A desk is online while its session is: PostgreSQL frees the desk's lock the moment the session
    /// ends, so the other desks see it gone at once, with no beat. A second store under the same
    /// desk name does not take it while the first holds it; the quiet beat moves last seen and
    /// takes the lock back after a new session. The server's keepalives are this session's.
    @Test func aDeskIsOnlineWhileItsSessionHoldsItsLock() async throws {
        try await SiteTestRig.with { rig in
            // A over TCP (the keepalives are a TCP session's), closed by the test.
            let folder = try TestDirectory(prefix: "site-lock")
            let password = try folder.write(rig.server.password + "\n", to: "password")
            try FileManager.default.setAttributes([.posixPermissions: Int16(0o600)], ofItemAtPath: password.path)
            let target = try PostgresTarget(settings: SiteConfig(url: rig.server.tcpURL(rig.database), passwordFile: password.path))
            let a = try await PostgresSiteStore.open(target: target)
            let b = try await Self.open(rig)
            try await a.heartbeat(DeskPresence(desk: "A", onDuty: true, operatorName: nil, currentCall: nil, at: Self.t0))
            try await a.heartbeat(DeskPresence(desk: "A", onDuty: true, operatorName: nil, currentCall: nil, at: Self.t0 + 2))
            #expect(try await b.desks().map(\.connected) == [true])
            // B under A's name: the lock is A's session's (a second desk configured with the same name).
            let second = try await b.heartbeat(DeskPresence(desk: "A", onDuty: true, operatorName: nil, currentCall: nil, at: Self.t0 + 1))
            #expect(second == false, "two sessions held one desk's name")
            let held = try await rig.server.psql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'", database: rig.database)
            #expect(held == "1", "a session's lock taken once, not once a beat: \(held)")
            let keepalive = try await a.connection.query("SHOW tcp_keepalives_idle")
            #expect(keepalive.rows.first?.first == "3", "\(keepalive.rows)")
            await a.close()
            let closed = ContinuousClock.now
            // The server ends the session right after the client's goodbye.
            try await TestPatience.poll("A's session gone at B", timeout: .seconds(2)) { (try? await b.desks().map(\.connected)) == [false] }
            print("site: a desk's session gone, seen at another desk after \(ContinuousClock.now - closed)")
            // The quiet beat (here every 50 ms) of a new session: A is back, its last seen moving.
            let again = try await Self.open(rig)
            let beating = Task { try await again.keepBeating(DeskPresence(desk: "A", onDuty: true, operatorName: nil, currentCall: nil, at: Self.t0),
                                                             every: .milliseconds(50), clock: SystemClock()) }
            try await TestPatience.poll("A's new session holds its lock") { (try? await b.desks().first?.connected) == true }
            let seen = try await b.desks().first?.at ?? .distantPast
            #expect(seen > Self.t0 + 2, "\(seen)")
            beating.cancel()
            try await beating.value
        }
    }

    @Test func aForkedCallIsOneRowAndTheFirstClaimWins() async throws {
        try await SiteTestRig.with { rig in
            let (a, b) = (try await Self.open(rig), try await Self.open(rig))
            let key = SiteCallKey("a84b4c76e66710@192.0.2.4")
            for (store, desk) in [(a, "A"), (b, "B"), (a, "C")] {
                try await store.noteRinging(key, panel: "gate", caller: "sip:gate@192.0.2.4", desk: desk, at: Self.t0)
            }
            try await b.noteRinging(key, panel: "gate", caller: nil, desk: "B", at: Self.t0 + 1)  // a repeat adds nothing
            let claims = try await withThrowingTaskGroup(of: SiteCall.self) { group in
                for (store, desk) in [(a, "A"), (b, "B"), (a, "C")] {
                    group.addTask {
                        try await store.claim(key, SiteCallClaim(kind: .answered, desk: desk, operatorName: desk.lowercased(),
                                                                 at: Self.t0 + 3))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winner = try #require(claims.first?.claim)
            #expect(claims.allSatisfy { $0.claim == winner }, "every claimant sees one winner: \(claims)")
            let call = try #require(try await a.call(key))
            #expect(call.legs.map(\.desk).sorted() == ["A", "B", "C"] && call.panel == "gate")
            #expect(try await a.activeCalls().map(\.key) == [key])
            for desk in ["A", "B", "C"] {
                try await b.noteEnded(key, desk: desk, reason: desk == winner.desk ? "hangup" : "answered_elsewhere", at: Self.t0 + 9)
            }
            #expect(try await b.activeCalls().isEmpty)
            #expect(try await a.call(key)?.legs.first { $0.desk != winner.desk }?.reason == "answered_elsewhere")
        }
    }

    @Test func theJournalTakesAnEntryOnceAndHandledIsHeard() async throws {
        try await SiteTestRig.with { rig in
            let (a, b) = (try await Self.open(rig), try await Self.open(rig))
            let heard = StreamRecorder(a.changes())
            #expect(Self.call(at: Self.t0, outcome: "missed").missed)
            let missed = SiteJournalEntry(id: UUID(), desk: "A", operatorName: nil, callKey: SiteCallKey("c1"), rangAt: ["A", "B"],
                                          entry: Self.call(at: Self.t0, outcome: "missed"))
            let answered = SiteJournalEntry(id: UUID(), desk: "B", operatorName: "boris", callKey: SiteCallKey("c2"), rangAt: ["A", "B"],
                                            claim: SiteCallClaim(kind: .answered, desk: "B", operatorName: "boris", at: Self.t0 + 61),
                                            entry: Self.call(at: Self.t0 + 60, outcome: "answered", answeredBy: "boris"))
            try await a.append([missed])
            try await b.append([missed, answered])  // a replay of `missed` adds nothing
            let all = try await a.entries(SiteJournalQuery())
            #expect(all.map(\.id) == [missed.id, answered.id])
            #expect(all.last?.claim?.desk == "B" && all.last?.rangAt == ["A", "B"] && all.last?.entry.answeredBy == "boris")
            #expect(try await a.entries(SiteJournalQuery(desk: "b")).map(\.id) == [answered.id])
            #expect(try await a.entries(SiteJournalQuery(unhandledOnly: true)).map(\.id) == [missed.id])
            #expect(try await a.entries(SiteJournalQuery(since: Self.t0 + 30)).map(\.id) == [answered.id])
            #expect(try await a.entries(SiteJournalQuery(limit: 1)).map(\.id) == [answered.id])
            let handled = try await b.markHandled(missed.id, by: "boris", at: Self.t0 + 120)
            #expect(handled.entry.handledBy == "boris")
            #expect(try await a.entries(SiteJournalQuery(unhandledOnly: true)).isEmpty)
            try await TestPatience.poll("A hears that B handled it") {
                heard.elements.contains(.journalHandled(id: missed.id, by: "boris", at: Self.t0 + 120))
            }
            let unknown = UUID()
            await #expect(throws: SiteStoreError.noEntry(unknown)) { try await a.markHandled(unknown, by: "x", at: Self.t0) }
            await heard.stop()
        }
    }

    @Test func theStoreDownIsUnreachableThenWorksAgain() async throws {
        try await SiteTestRig.with { rig in
            let a = try await Self.open(rig)
            try await a.heartbeat(DeskPresence(desk: "A", onDuty: true, operatorName: "anna", currentCall: nil, at: Self.t0))
            await rig.server.stop()
            do {
                try await a.heartbeat(DeskPresence(desk: "A", onDuty: true, operatorName: "anna", currentCall: nil, at: Self.t0 + 2))
                Issue.record("a heartbeat with the store stopped passed")
            } catch {
                guard case SiteStoreError.unreachable = error else { Issue.record("not unreachable: \(error)"); return }
            }
            try await rig.server.start()
            let desk = DeskPresence(desk: "A", onDuty: false, operatorName: nil, currentCall: SiteCallKey("c9"), at: Self.t0 + 4)
            try await a.heartbeat(desk)
            var seen = desk
            seen.connected = true
            #expect(try await a.desks() == [seen])
        }
    }

    /// A desk that started while the store was down (the daemon's fallback): its first request once the
    /// store answers creates the schema, and its feed hears the other desks from then on.
    @Test func aStoreMadeWhileTheServerIsDownMigratesAndListensWhenItAnswers() async throws {
        try await SiteTestRig.with { rig in
            await rig.server.stop()
            let late = PostgresSiteStore(target: PostgresTarget(url: rig.server.socketURL(rig.database)))
            rig.onCleanup { await late.close() }
            await late.startFeed()
            let heard = StreamRecorder(late.changes())
            do {
                try await late.ping()
                Issue.record("a ping with the store stopped passed")
            } catch {
                guard case SiteStoreError.unreachable = error else { Issue.record("not unreachable: \(error)"); return }
            }
            try await rig.server.start()
            try await late.ping()
            #expect(try await rig.server.psql("SELECT max(version) FROM site_schema", database: rig.database)
                == String(SiteSchema.product.latest))
            let other = try await Self.open(rig)
            let change = SiteSwitchChange(panel: "gate", kind: .calls, value: "off", desk: "B", operatorName: nil, at: Self.t0)
            // The listener reconnects on its own within a second or so; a switch published after that is heard.
            try await TestPatience.poll("the late desk hears the other desk's switch") {
                if !heard.elements.contains(.switchChanged(change)) {
                    try? await other.publish(SiteSwitchChange(panel: "gate", kind: .calls, value: "off", desk: "B",
                                                              operatorName: nil, at: Self.t0))
                }
                return heard.elements.contains(.switchChanged(change))
            }
            await heard.stop()
        }
    }

    /// A call entry as a desk's journal prints it (`log --json`), read back as the journal reads one.
    static func call(at time: Date, outcome: String, answeredBy: String? = nil) -> JournalEntry {
        let json = JSONValue.object([("kind", .string("call")), ("time", .string(RFC3339.string(time))), ("panel", .string("gate")),
                                     ("from", .string("sip:gate@192.0.2.4")), ("outcome", .string(outcome)),
                                     ("answered_by", .optional(answeredBy))])
        guard let entry = JournalEntry(json: json) else { preconditionFailure("a call entry's JSON did not read back") }
        return entry
    }
}
