import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomTestSupport
import Testing

/// This desk's link to its site on the fake store and a manual clock (issue 40): heartbeats and the
/// offline rule, switches shared without an echo, later wins after an outage, duty and 480.
@Suite struct SiteLinkTests {
    @Test func aDeskNotHeardForTenSecondsIsOffline() async throws {
        // A frozen desk: its session still there, its beats gone (the rule's values as parameters).
        let rig = try SiteRig(["A", "B"].map { SiteSettings(desk: $0, quietHeartbeat: .seconds(2), offlineAfter: 10) })
        // B beats once and stops; A beats on every 2 s.
        await rig["B"].heartbeatNow()
        try await rig.run(["A"]) {
            #expect(try await rig["A"].desks().map(\.online) == [true, true])
            for _ in 0..<5 {
                rig.clock.advance(by: .seconds(2))
                try await rig.clock.waitForSleepers(1)
            }
            let rows = try await rig["A"].desks()
            #expect(rows.map(\.presence.desk) == ["A", "B"] && rows.map(\.online) == [true, false], "\(rows)")
            #expect(!SiteDeskRow.nobodyOnDuty(rows))
        }
    }

    @Test func aDeskWhoseSessionEndedIsOfflineAtOnce() async throws {
        let rig = try SiteRig("A", "B")
        await rig["B"].heartbeatNow()
        try await rig.run(["A"]) {
            let before = try await rig["A"].desks().map(\.online)
            rig.store.endSession(of: "B")
            let gone = try await rig["A"].desks().map(\.online)
            // Back: its first heartbeat is a new session.
            await rig["B"].heartbeatNow()
            let back = try await rig["A"].desks().map(\.online)
            #expect(before == [true, true] && gone == [true, false] && back == [true, true], "\(before) \(gone) \(back)")
        }
    }

    /// A second desk under this desk's name: said once, and the link beats itself (every `heartbeat`)
    /// until the name is its own again.
    @Test func aNameHeldByAnotherConnectionIsSaidAndWatched() async throws {
        let rig = try SiteRig("A")
        rig.store.holdName("A")
        try await rig.run {
            #expect(await rig["A"].nameTaken)
            rig.store.holdName("A", false)
            try await rig.clock.waitForSleeper(endingIn: .seconds(2))
            rig.clock.advance(by: .seconds(2))
            try await TestPatience.poll("A holds its name again") { await !rig["A"].nameTaken }
            #expect(rig.events("A").all == [.nameTaken(true), .nameTaken(false)], "\(rig.events("A").all)")
        }
    }

    /// While the store answers, the link sleeps: the store beats every `quietHeartbeat`; a change of
    /// what the desk says of itself (its duty, its call) is beaten at once, then quietly again.
    @Test func theQuietBeatIsTheStoresAndAChangeIsBeatenAtOnce() async throws {
        let rig = try SiteRig("A")
        try await rig.run {
            let beats = { rig.store.writes.all.filter { $0 == "heartbeat A" }.count }
            #expect(beats() == 1)
            let quiet = SiteSettings(desk: "A").quietHeartbeat
            for expected in 2...3 {
                try await rig.clock.waitForSleeper(endingIn: quiet)
                rig.clock.advance(by: quiet)
                try await TestPatience.poll("beat \(expected)") { beats() == expected }
            }
            _ = await rig["A"].setDuty(false, operatorName: "anna")
            try await rig.clock.waitForSleeper(endingIn: quiet)
            let presence = try await rig.store.desks().first
            #expect(presence?.onDuty == false && presence?.operatorName == "anna", "\(String(describing: presence))")
            #expect(rig.store.writes.all.filter { $0 == "heartbeat A" }.count >= 4)
        }
    }

    @Test func aSwitchFromAnotherDeskIsAppliedOnceAndNeverSentBack() async throws {
        let rig = try SiteRig("A", "B", "C")
        try await rig.run {
            await rig["A"].publish(panel: "entrance", kind: .guest, value: "off")
            for desk in ["B", "C"] {
                let change = try await rig.events(desk).wait(for: "A's guest switch at \(desk)") { $0.switchChange != nil }
                #expect(change.switchChange?.desk == "A")
            }
            // B knows who switched what when; A heard its own change on the feed and did nothing with it.
            #expect(await rig["B"].knownSwitches.map(\.desk) == ["A"])
            #expect(rig.events("A").all.isEmpty, "\(rig.events("A").all)")
            #expect(rig.store.writes.all.filter { $0.hasPrefix("publish") }.count == 1, "\(rig.store.writes.all)")
        }
    }

    @Test func anOffDutyDeskRefusesTheRingWith480AndTheSiteKnowsWhy() async throws {
        let rig = try SiteRig("A", "B")
        try await rig.run {
            let settings = await rig["A"].setDuty(false, operatorName: "anna")
            #expect(!settings.onDuty && settings.operatorName == "anna")
            let key = SiteCallKey("ring-1@10.0.0.2")
            #expect(await rig["A"].ringing(key, panel: "entrance", caller: "1001") == .refuseOffDuty)
            #expect(await rig["B"].ringing(key, panel: "entrance", caller: "1001") == .ring)
            for desk in ["A", "B"] { await rig[desk].flushed() }
            let row = try #require(try await rig.store.call(key))
            #expect(row.legs.first { $0.desk == "A" }?.reason == SiteLink.refusedOffDuty)
            let desks = try await rig["B"].desks()
            #expect(desks.first { $0.presence.desk == "A" }?.presence.onDuty == false)
            _ = await rig["B"].setDuty(false, operatorName: nil)
            #expect(SiteDeskRow.nobodyOnDuty(try await rig["B"].desks()))
        }
    }

    @Test func aRestartedDeskCatchesUpWithTheSwitchesItMissed() async throws {
        let rig = try SiteRig("A", "B")
        try await rig.run(["A"]) {
            await rig["A"].publish(panel: "entrance", kind: .calls, value: "off")
        }
        try await rig.run(["B"]) {
            let change = try await rig.events("B").wait(for: "the switch kept at the site") { $0.switchChange != nil }
            #expect(change.switchChange?.value == "off")
        }
    }

    @Test func switchValuesReadBackAsTheEngineWroteThem() {
        let until = ManualClock.epoch.addingTimeInterval(3600)
        #expect(SiteSwitchValue.guest(SiteSwitchValue.guest(until)) == .some(until))
        #expect(SiteSwitchValue.guest(SiteSwitchValue.guest(nil)) == .some(nil))
        #expect(SiteSwitchValue.guest("sometimes") == nil)
        #expect(SiteSwitchValue.calls(SiteSwitchValue.calls(false)) == false)
    }
}
