import Foundation
import Testing
import IntercomBase
import IntercomTestSupport

/// The site's journal and state through real desk daemons on one private PostgreSQL 15 (issue 40):
/// a restarted desk keeps the site's switches and journal; a call answered with the store down is
/// in that desk's log at once and in another desk's within 20 s of the store's return; a store
/// frozen (connected, but silent) never blocks the desk.
@Suite("daemon: a site's journal", .removesTestFolders) struct DaemonSiteJournalTests {
    /// `intercom log --json` at `desk`: its entries (the site's, or the desk's own when the store is down).
    static func log(_ desk: DaemonProcess) async throws -> (entries: [JSONValue], stderr: String) {
        let run = try await desk.run(["log", "--json"])
        return (run.stdout.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }, run.stderr)
    }

    static func calls(_ entries: [JSONValue], desk: String? = nil) -> [JSONValue] {
        entries.filter { $0["kind"]?.stringValue == "call" && (desk == nil || $0["desk"]?.stringValue == desk) }
    }

    @Test("C restarted keeps the site's switches and journal: guest mode from A, its own call once")
    func aRestartedDeskKeepsTheSitesState() async throws {
        try await DaemonSiteTests.site(["A", "B", "C"]) { postgres, database, desks in
            let (a, c) = (desks[0], desks[2])
            try await FaultChecks.expectAnswersAPanelCall(c, label: "at-c")
            try await TestPatience.poll("C's call reaches the site") { await ((try? Self.log(a).entries).map { Self.calls($0, desk: "C") }?.count ?? 0) == 1 }
            // Guest mode after the call (it would open the door and end the call itself).
            #expect(try await a.run(["ctl", "guest", "2h", "--panel", "entrance"]).status == 0)
            try await c.waitForEvent("panel_policy", timeout: .seconds(5)) { $0.string("guest_until") != nil }
            #expect(await c.stop() == 0, "\(c.log)")
            // Its session gone, C is offline at A at once (not after a beat's silence).
            let stopped = ContinuousClock.now
            var site = ""
            let offline = await TestPatience.eventually(within: .seconds(2)) {
                site = ((try? await a.run(["ctl", "site", "--json"]).stdout) ?? "").filter { !$0.isWhitespace }
                return site.contains("\"online\":false,\"operator\":\"op-c\"")
            }
            #expect(offline, "C stopped, offline at A within 2 s: \(site)")
            print("site: C stopped, offline at A after \(ContinuousClock.now - stopped)")
            let again = try DaemonProcess(config: DaemonSiteTests.config(desk: "C", url: postgres.tcpURL(database),
                                                                         passwordFile: Self.passwordFile(c)),
                                          name: "desk-c-again", directory: c.directory)
            try await withCleanup({ _ = await again.stop() }) {
                try await again.waitUntilStarted(timeout: .seconds(30))
                var status = ""
                let known = await TestPatience.eventually(within: .seconds(10)) {
                    // Printed indented: compared without its blanks.
                    status = ((try? await again.run(["ctl", "status", "--json"]).stdout) ?? "").filter { !$0.isWhitespace }
                    return status.contains("\"kind\":\"guest\"") && status.contains("\"desk\":\"A\"")
                }
                #expect(known, "restarted C knows A's guest mode from the site: \(status)\n\(again.log)")
                let log = try await Self.log(again)
                #expect(Self.calls(log.entries, desk: "C").count == 1, "C's call once, after the restart too: \(log)")
            }
        }
    }

    @Test("PostgreSQL stopped: a call answered at A is in A's log, and in B's within 20 s of the store's return")
    func aCallAnsweredDuringAnOutageReachesTheOtherDesksLog() async throws {
        try await DaemonSiteTests.site(["A", "B"]) { postgres, _, desks in
            let (a, b) = (desks[0], desks[1])
            await postgres.stop()
            try await FaultChecks.expectAnswersAPanelCall(a, label: "outage")
            let atA = try await Self.log(a)
            #expect(atA.stderr.contains("the site's journal cannot be read"), "\(atA.stderr)")
            #expect(Self.calls(atA.entries).contains { $0["answered_by"]?.stringValue == "auto" }, "A's own log: \(atA)")
            try await postgres.start()
            let back = ContinuousClock.now
            try await TestPatience.poll("B's log holds A's call", timeout: .seconds(20)) {
                let atB = (try? await Self.log(b).entries) ?? []
                return Self.calls(atB, desk: "A").contains { $0["answered_by"]?.stringValue == "auto" }
            }
            print("site: the store back, A's call answered during the outage in B's log after \(ContinuousClock.now - back)")
        }
    }

    @Test("PostgreSQL frozen (SIGSTOP): A answers a call at once and says site_unreachable within its timeout, then switches; after SIGCONT the site holds both")
    func aFrozenStoreNeverBlocksTheDesk() async throws {
        try await DaemonSiteTests.site(["A"], siteLines: "timeout = 1") { postgres, database, desks in
            let a = desks[0]
            try postgres.freeze()
            let frozen = Date()
            // At once, before the desk can know: the ring's note and the answer's claim wait in the
            // outbox, the call does not (it would wait for the 1 s deadline if they went inline).
            try await FaultChecks.expectAnswersAPanelCall(a, label: "frozen")
            let answeredIn = try Self.answerTime(a)
            #expect(answeredIn < 1, "auto-answered \(answeredIn) s after the ring with the store frozen\n\(a.log)")
            // The first write fails at its 1 s deadline (idle, the desk would know at its next quiet beat, every 10 s).
            let unreachable = try await a.waitForEvent("site_unreachable", timeout: .seconds(6))
            let said = try #require(unreachable.string("time").flatMap(RFC3339.date)).timeIntervalSince(frozen)
            #expect(said < 4, "site_unreachable \(said) s after the freeze: the first write's timeout, 1 s")
            let switched = ContinuousClock.now
            let off = try await a.run(["ctl", "calls", "off", "--panel", "entrance"])
            #expect(off.status == 0 && ContinuousClock.now - switched < .seconds(1), "\(off) after \(ContinuousClock.now - switched)")
            print("site: frozen store said unreachable after \(said) s; a call answered \(answeredIn) s after its ring and a switch made meanwhile")
            postgres.thaw()
            let reachable = try await a.waitForEvent("site_reachable", timeout: .seconds(20))
            #expect((reachable.fields["replayed"] as? Int ?? 0) >= 2, "\(reachable)")
            let held = try await postgres.psql("SELECT (SELECT count(*) FROM site_journal WHERE desk = 'A' AND kind = 'call') || ' ' "
                + "|| (SELECT value FROM site_switches WHERE kind = 'calls' AND desk = 'A' ORDER BY at DESC LIMIT 1)", database: database)
            #expect(held == "1 off", "the site holds A's call and switch: \(held)\n\(a.log)")
            #expect(a.events.filter { $0.name == "site_unreachable" }.count == 1, "\(a.log)")
        }
    }

    /// Seconds from the desk's last `call_incoming` to that call's `call_answered`, as the events' times say.
    static func answerTime(_ desk: DaemonProcess) throws -> TimeInterval {
        func time(_ event: DaemonEvent?) -> Date? { event?.string("time").flatMap(RFC3339.date) }
        let incoming = desk.events.last { $0.name == "call_incoming" }
        let answered = desk.events.first { $0.name == "call_answered" && $0.string("call") == incoming?.string("call") }
        guard let rang = time(incoming), let taken = time(answered) else {
            throw HarnessError("no call_incoming and call_answered with their times\n\(desk.events)")
        }
        return taken.timeIntervalSince(rang)
    }

    /// The password file the site's desks share (the config names it).
    static func passwordFile(_ desk: DaemonProcess) throws -> String {
        let config = try String(contentsOf: desk.configURL, encoding: .utf8)
        guard let line = config.split(separator: "\n").first(where: { $0.hasPrefix("password_file = ") }) else {
            throw HarnessError("no password_file in \(desk.configURL.path)")
        }
        return String(line.dropFirst("password_file = ".count))
    }
}
