import Foundation
import Testing
import IntercomBase
import IntercomPhone
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Three desk daemons (the real binary) on one private PostgreSQL 15 and one Kamailio that forks a
/// panel's call to all three (issue 40): answered at B (`ctl answer`), it ends at A and C as answered
/// elsewhere naming B and its operator; the site holds it once, by the INVITE's Call-ID, rung at
/// all three. Measures B's answer → A's `call_ended` naming B over a few calls.
@Suite("daemon: a site's forked call", .removesTestFolders) struct DaemonSiteCallTests {
    static func sip(_ kamailio: Kamailio) -> String { kamailio.deskSIPSection }

    static let rounds = 5

    /// A Kamailio, a panel phone, and desks A, B and C registered at it as `desk` on one private PostgreSQL.
    struct Site {
        let kamailio: Kamailio
        let panel: Phone
        let panelEvents: EventRecorder<PhoneEvent>
        let postgres: PostgresServer
        let database: String
        let desks: [DaemonProcess]

        /// The panel calls the desks' account: Kamailio forks it to all three.
        func call() async throws -> CallID { try await panel.call("sip:desk@\(kamailio.hostPort)", video: false) }
        func psql(_ sql: String) async throws -> String { try await postgres.psql(sql, database: database) }
    }

    /// `siteLines`: more `[site]` keys, given Kamailio's address.
    static func forkingSite(siteLines: (Kamailio) -> String = { _ in "" }, _ body: (Site) async throws -> Void) async throws {
        let kamailio = try Kamailio()
        try await kamailio.start()
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel", video: .off)
        try await withCleanup({ await panel.stop(); await kamailio.stop() }) {
            try await DaemonSiteTests.site(["A", "B", "C"], sip: Self.sip(kamailio), siteLines: siteLines(kamailio)) { postgres, database, desks in
                for desk in desks { try await desk.waitForEvent("registered", timeout: .seconds(10)) }
                try await body(Site(kamailio: kamailio, panel: panel, panelEvents: panelEvents, postgres: postgres,
                                    database: database, desks: desks))
            }
        }
    }

    @Test("a forked call answered at B ends at A and C naming B (op-b); one site call, rung at A, B and C")
    func aForkedCallAnsweredAtBEndsAtAAndCNamingB() async throws {
        try await Self.forkingSite { site in
            let desks = site.desks
            let (a, b, c) = (desks[0], desks[1], desks[2])
            var latencies: [Double] = []
            for round in 1...Self.rounds {
                let outgoing = try await site.call()
                let rung = try await Self.nthEvent("call_incoming", round, at: desks)
                let answering = ContinuousClock.now
                let answer = try await b.run(["ctl", "answer"])
                #expect(answer.status == 0, "\(answer)")
                let endedA = try await a.waitForEvent("call_ended") { $0.string("call") == rung[0].string("call") }
                let seen = ContinuousClock.now - answering
                let endedC = try await c.waitForEvent("call_ended") { $0.string("call") == rung[2].string("call") }
                for ended in [endedA, endedC] {
                    #expect(ended.string("reason") == "answered_elsewhere" && ended.string("desk") == "B"
                            && ended.string("operator") == "op-b", "\(ended)\n--- B:\n\(b.log)")
                }
                let answered = try await b.waitForEvent("call_answered") { $0.string("call") == rung[1].string("call") }
                if let from = Self.time(answered), let to = Self.time(endedA) { latencies.append(to.timeIntervalSince(from) * 1000) }
                print("site call \(round): B answered → A's call_ended naming B: \(Self.ms(latencies.last)) by the events' times, "
                      + "\(seen) from `ctl answer` started to the test seeing it")
                if round == 1 {
                    // The same Call-ID at every desk: one call at the site, rung at A, B and C, claimed by B.
                    let calls = try await site.psql("SELECT count(*) || ' ' || min(claim_desk) FROM site_calls")
                    let legs = try await site.psql("SELECT string_agg(desk, ',' ORDER BY desk) FROM site_call_desks")
                    #expect(calls == "1 B" && legs == "A,B,C", "\(calls) / \(legs)")
                }
                _ = try await site.panelEvents.wait("panel established \(round)") { $0.established(outgoing) }
                try await site.panel.hangup(outgoing)
                try await b.waitForEvent("call_ended") { $0.string("call") == rung[1].string("call") }
            }
            // The journals of A and C (the site's, through `intercom log`) hold each forked call once,
            // written by B, not missed; the desks whose legs were answered elsewhere wrote nothing.
            for desk in [a, c] {
                var calls: [JSONValue] = []
                let once = await TestPatience.eventually(within: .seconds(10)) {
                    calls = (try? await DaemonSiteJournalTests.log(desk).entries).map { DaemonSiteJournalTests.calls($0) } ?? []
                    return calls.count == Self.rounds
                }
                #expect(once && calls.allSatisfy { $0["desk"]?.stringValue == "B" && $0["outcome"]?.stringValue != "missed" },
                        "\(calls.map(\.encoded))")
            }
            let sorted = latencies.sorted()
            #expect(sorted.count == Self.rounds)
            print("site calls: B's answer → A names B, median \(Self.ms(sorted.isEmpty ? nil : sorted[sorted.count / 2])), "
                  + "max \(Self.ms(sorted.last)) over \(sorted.count) calls")
        }
    }

    @Test("C off duty refuses its fork with 480, the site says so; A and B ring, and B's answer ends A's leg naming B")
    func aDeskOffDutyRefusesItsForkWith480() async throws {
        try await Self.forkingSite { site in
            let (a, b, c) = (site.desks[0], site.desks[1], site.desks[2])
            let duty = try await c.run(["ctl", "duty", "off"])
            #expect(duty.status == 0, "\(duty)")
            let outgoing = try await site.call()
            let refused = try await c.waitForEvent("call_ended")
            #expect(refused.string("reason") == "declined", "\(refused)")
            let rung = try await Self.nthEvent("call_incoming", 1, at: [a, b])
            let answer = try await b.run(["ctl", "answer"])
            #expect(answer.status == 0, "\(answer)")
            let endedA = try await a.waitForEvent("call_ended") { $0.string("call") == rung[0].string("call") }
            #expect(endedA.string("desk") == "B", "\(endedA)")
            let legs = try await site.psql("SELECT string_agg(desk || ' ' || coalesce(end_reason, '-'), ',' ORDER BY desk) FROM site_call_desks")
            #expect(legs == "A answered_elsewhere,B -,C refused_off_duty", "\(legs)\n--- C:\n\(c.log)")
            _ = try await site.panelEvents.wait("panel established") { $0.established(outgoing) }
            try await site.panel.hangup(outgoing)
            try await b.waitForEvent("call_ended") { $0.string("call") == rung[1].string("call") }
        }
    }

    @Test("a ring nobody answers in 5 s is escalated by exactly one desk: answered there and transferred blind to the guard, who rings")
    func anUnansweredRingIsEscalatedToTheGuardByOneDesk() async throws {
        let guardAt = { (kamailio: Kamailio) in "sip:guard@\(kamailio.hostPort)" }
        try await Self.forkingSite(siteLines: { "escalate_after = 5s\nescalate_to = \(guardAt($0))" }) { site in
            let guardURI = guardAt(site.kamailio)
            let (guardPhone, guardEvents) = try await PhoneTestSupport.phone(
                "guard", video: .off, account: SIPAccount(identity: guardURI, proxy: site.kamailio.uri))
            try await withCleanup({ await guardPhone.stop() }) {
                let desks = site.desks
                _ = try await guardEvents.wait("guard registered") { $0.registered }
                _ = try await site.call()
                let rung = try await Self.nthEvent("call_incoming", 1, at: desks)
                let atGuard = try await guardEvents.wait("ringing at the guard", timeout: 20) { $0.incomingCall }
                try await guardPhone.answer(atGuard.id, video: false)
                // Exactly one desk answered it (by auto) and transferred it to the guard.
                let escalating = desks.indices.filter { desks[$0].events.contains { $0.name == "call_answered" } }
                #expect(escalating.count == 1, "\(desks.map(\.names))")
                guard let winner = escalating.first else { return }
                let transferred = try await desks[winner].waitForEvent("call_transferred", timeout: .seconds(10))
                #expect(transferred.fields["ok"] as? Bool == true && transferred.string("to") == guardURI, "\(transferred)")
                let name = ["A", "B", "C"][winner]
                for (i, desk) in desks.enumerated() where i != winner {
                    let ended = try await desk.waitForEvent("call_ended") { $0.string("call") == rung[i].string("call") }
                    #expect(ended.string("reason") == "answered_elsewhere" && ended.string("desk") == name, "\(ended)")
                }
                let claim = try await site.psql("SELECT claim_kind || ' ' || claim_desk FROM site_calls")
                #expect(claim == "escalated \(name)", "\(claim)")
                try await guardPhone.hangup(atGuard.id)
            }
        }
    }

    /// The `n`th `call_incoming` at each desk, in the desks' order.
    static func nthEvent(_ name: String, _ n: Int, at desks: [DaemonProcess]) async throws -> [DaemonEvent] {
        var found: [DaemonEvent] = []
        for desk in desks {
            try await desk.waitForEvent(name) { _ in desk.events.filter { $0.name == name }.count >= n }
            found.append(desk.events.filter { $0.name == name }[n - 1])
        }
        return found
    }

    static func time(_ event: DaemonEvent) -> Date? {
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return event.string("time").flatMap(format.date(from:))
    }

    static func ms(_ value: Double?) -> String { value.map { String(format: "%.0f ms", $0) } ?? "?" }
}
