import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomTestSupport
import Testing

/// Two engines on one fake site store (issue 40): guest mode and do-not-disturb switched at one desk
/// hold at the other, once, without coming back; a lone desk has no site at all.
@Suite struct SiteSwitchEngineTests {
    /// Engines A and B, each with its panel `entrance` and its link to `store`, for `body`.
    /// `escalation`: both desks' `[site] escalate_after` and `escalate_to`.
    static func twoDesks(escalation: (after: Duration, to: String)? = nil,
                         _ body: (EngineRig, EngineRig, FakeSiteStore) async throws -> Void) async throws {
        let store = FakeSiteStore()
        let a = try await EngineRig.start(panels: [CallPolicyTests.entrance()])
        let b = try await EngineRig.start(panels: [CallPolicyTests.entrance()])
        try await withCleanup({ await a.stop(); await b.stop() }) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (desk, rig) in [("A", a), ("B", b)] {
                    let link = SiteLink(store: store, settings: SiteSettings(desk: desk, operatorName: desk == "B" ? "anna" : nil,
                                                                     escalateAfter: escalation?.after, escalateTo: escalation?.to),
                                        outbox: try SiteOutbox(path: nil), clock: rig.clock, logger: .silent)
                    group.addTask { await rig.intercom.runSite(link) }
                    // Running once its first heartbeat is in and it waits for the next.
                    try await rig.clock.waitForSleeper(endingIn: SiteSettings(desk: desk).quietHeartbeat)
                }
                do { try await body(a, b, store) } catch {
                    group.cancelAll()
                    throw error
                }
                group.cancelAll()
            }
        }
    }

    /// Until what the desk's engine wrote for the site so far is there (its link sends beside it).
    static func flushed(_ rig: EngineRig) async {
        await rig.intercom.site.link?.flushed()
    }

    static func policy(_ rig: EngineRig, _ what: String, _ match: @escaping (Bool, Date?) -> Bool) async throws {
        _ = try await rig.event(what) { kind -> Bool? in
            if case .panelPolicy("entrance", let calls, let guest) = kind, match(calls, guest) { true } else { nil }
        }
    }

    @Test func guestModeOnAtAIsOnAtBAndOffAtBIsOffAtA() async throws {
        try await Self.twoDesks { a, b, store in
            let until = a.clock.date.addingTimeInterval(3600)
            _ = try await a.intercom.execute(.setGuest(panel: "entrance", until: until))
            try await Self.policy(b, "guest mode on at B") { _, guest in guest != nil }
            #expect(await b.intercom.config.panels.first?.guestUntil.map { abs($0.timeIntervalSince(until)) < 0.01 } == true)
            _ = try await b.intercom.execute(.setGuest(panel: "entrance", until: nil))
            try await Self.policy(a, "guest mode off at A") { _, guest in guest == nil }
            #expect(await a.intercom.config.panels.first?.guestUntil == nil)
            _ = try await a.intercom.execute(.setCalls(panel: "entrance", on: false))
            try await Self.policy(b, "do-not-disturb at B") { calls, _ in !calls }
            // Each switch was published once, by the desk that made it: nothing echoed back.
            let publishes = store.writes.all.filter { $0.hasPrefix("publish") }
            #expect(publishes.count == 3 && publishes.map { $0.hasSuffix("by A") } == [true, false, true], "\(publishes)")
            #expect(try await store.switches().first { $0.kind == .guest }?.operatorName == "anna")
            // ctl status at A says who switched what when (B's guest off, A's calls off).
            let site = await a.intercom.status["site"]
            guard case .array(let switches)? = site?["switches"] else { Issue.record("no site switches: \(String(describing: site))"); return }
            #expect(switches.map { "\($0["kind"]?.stringValue ?? "") \($0["value"]?.stringValue ?? "") \($0["desk"]?.stringValue ?? "")" }
                    == ["calls off A", "guest off B"], "\(switches)")
            #expect(switches.last?["operator"]?.stringValue == "anna" && site?["reachable"]?.boolValue == true)
        }
    }

    @Test func theStoreDownIsSaidOnceAndItsReturnWithWhatWasReplayed() async throws {
        try await Self.twoDesks { a, _, store in
            store.reachable = false
            // A switch during the outage: made here at once, kept for the site.
            _ = try await a.intercom.execute(.setCalls(panel: "entrance", on: false))
            let why = try await a.event("site_unreachable") { if case .siteUnreachable(let why) = $0 { why } else { nil } }
            #expect(why.contains("switched off"), "\(why)")
            store.reachable = true
            try await a.clock.waitForSleeper(endingIn: .seconds(2))
            a.clock.advance(by: .seconds(2))
            let replayed = try await a.event("site_reachable") { if case .siteReachable(let n) = $0 { n } else { nil } }
            #expect(replayed == 1)
            #expect(a.events.all.filter { $0.eventName == .siteUnreachable }.count == 1)
            #expect(try await store.switches().map(\.value) == ["off"])
        }
    }

    @Test func dutyOffAtAIsSeenAtBInCtlSite() async throws {
        try await Self.twoDesks { a, b, _ in
            let duty = try await a.intercom.execute(.duty(on: false, operator: "bob"))
            #expect(duty["desk"]?.stringValue == "A" && duty["on_duty"]?.boolValue == false && duty["operator"]?.stringValue == "bob")
            let site = try await b.intercom.execute(.siteDesks)
            guard case .array(let desks)? = site["desks"] else { Issue.record("no desks: \(site.encoded)"); return }
            #expect(desks.map { $0["desk"]?.stringValue } == ["A", "B"], "\(site.encoded)")
            #expect(desks.first?["on_duty"]?.boolValue == false && desks.first?["operator"]?.stringValue == "bob"
                    && desks.first?["online"]?.boolValue == true, "\(site.encoded)")
            #expect(site["nobody_on_duty"]?.boolValue == false)
        }
    }

    @Test func aLoneDeskHasNoSiteAndSwitchesAsBefore() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig in
            _ = try await rig.intercom.execute(.setCalls(panel: "entrance", on: false))
            #expect(await rig.intercom.site.link == nil)
            #expect(await rig.intercom.status["site"] == nil)
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.siteDesks) }
            do { _ = try await rig.intercom.execute(.duty(on: true, operator: nil)) } catch {
                #expect("\(error)".contains("not in a site"), "\(error)")
            }
            #expect(await rig.intercom.config.panels.first?.calls == false)
        }
    }
}
