import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import Testing

/// A forked call shared by the desks (issue 40): the first claim takes it, a desk whose leg ended
/// answered elsewhere names the desk and operator that took it (waiting for the claim up to a
/// second), the site's journal holds the call once, and only one desk escalates it.
@Suite struct SiteCallTests {
    static let key = SiteCallKey("fork-1@10.0.0.2")

    /// The fork rings at `desks` in that order (each ring at the site before the next).
    static func ringAll(_ rig: SiteRig, _ desks: [String]) async {
        for desk in desks {
            #expect(await rig[desk].ringing(key, panel: "entrance", caller: "1001") == .ring)
            await rig[desk].flushed()
        }
    }

    /// Until the desks' writes so far are at the site (they go out beside their callers).
    static func flushed(_ rig: SiteRig, _ desks: [String]) async {
        for desk in desks { await rig[desk].flushed() }
    }

    @Test func theDeskThatLostTheCallNamesTheDeskAndOperatorThatTookIt() async throws {
        let rig = try SiteRig([SiteSettings(desk: "A"), SiteSettings(desk: "B", operatorName: "anna")])
        try await rig.run {
            await Self.ringAll(rig, ["A", "B"])
            await rig["B"].answered(Self.key)
            await rig["B"].flushed()
            let won = try await rig.store.call(Self.key)?.claim
            #expect(won?.desk == "B")
            let claim = await rig["A"].claimant(Self.key)
            #expect(claim?.desk == "B" && claim?.operatorName == "anna")
        }
    }

    @Test func theClaimThatLandsAfterTheCancelIsWaitedForUpToASecond() async throws {
        let rig = try SiteRig([SiteSettings(desk: "A"), SiteSettings(desk: "B", operatorName: "anna")])
        try await rig.run {
            await Self.ringAll(rig, ["A", "B"])
            try await withThrowingTaskGroup(of: SiteCallClaim?.self) { group in
                group.addTask { await rig["A"].claimant(Self.key) }
                // A polls (its heartbeat and B's wait too): B's claim lands 300 ms in.
                try await rig.clock.waitForSleeper(endingIn: .milliseconds(100))
                for _ in 0..<3 {
                    rig.clock.advance(by: .milliseconds(100))
                    try await rig.clock.waitForSleeper(endingIn: .milliseconds(100))
                }
                await rig["B"].answered(Self.key)
                await rig["B"].flushed()
                rig.clock.advance(by: .milliseconds(100))
                #expect(try await group.next()??.desk == "B")
            }
        }
    }

    @Test func withNoClaimInASecondTheCallEndsUnnamed() async throws {
        let rig = try SiteRig("A", "B")
        try await rig.run {
            await Self.ringAll(rig, ["A", "B"])
            try await withThrowingTaskGroup(of: SiteCallClaim?.self) { group in
                group.addTask { await rig["A"].claimant(Self.key) }
                for _ in 0..<10 {
                    try await rig.clock.waitForSleeper(endingIn: .milliseconds(100))
                    rig.clock.advance(by: .milliseconds(100))
                }
                #expect(try await group.next()! == nil)
            }
        }
    }

    @Test func aForkedCallIsOneEntryAtTheSiteAnsweredAtBNotMissed() async throws {
        let rig = try SiteRig([SiteSettings(desk: "A"), SiteSettings(desk: "B", operatorName: "anna"), SiteSettings(desk: "C")])
        try await rig.run {
            await Self.ringAll(rig, ["A", "B", "C"])
            await rig["B"].answered(Self.key)
            for desk in ["A", "C"] {
                await rig[desk].ended(Self.key, reason: "answered_elsewhere")
                try await rig[desk].journal(SiteRig.journalEntry(outcome: "answered_elsewhere"), call: Self.key)
            }
            await rig["B"].ended(Self.key, reason: "hangup")
            try await rig["B"].journal(SiteRig.journalEntry(outcome: "hangup", answeredBy: "ctl"), call: Self.key)
            await Self.flushed(rig, ["A", "B", "C"])
            let journal = try await rig.store.entries(SiteJournalQuery())
            #expect(journal.count == 1)
            let entry = try #require(journal.first)
            #expect(entry.rangAt == ["A", "B", "C"] && entry.claim?.desk == "B" && entry.operatorName == "anna")
            #expect(!entry.missed && entry.desk == "B")
            #expect(try await rig.store.activeCalls().isEmpty)
        }
    }

    @Test func aRingNoDeskAnsweredIsOneMissedEntryInTheSiteQueue() async throws {
        let rig = try SiteRig("A", "B", "C")
        try await rig.run {
            await Self.ringAll(rig, ["A", "B", "C"])
            for desk in ["A", "B", "C"] {
                await rig[desk].ended(Self.key, reason: "timeout")
                try await rig[desk].journal(SiteRig.journalEntry(outcome: "timeout"), call: Self.key)
            }
            await Self.flushed(rig, ["A", "B", "C"])
            let queue = try await rig.store.entries(SiteJournalQuery(unhandledOnly: true))
            #expect(queue.count == 1 && queue.first?.missed == true)
            // Handled at C: out of every desk's queue, and every desk hears it.
            await rig["C"].handled(SiteLink.entryID(Self.key), by: "ctl (bob)")
            await rig["C"].flushed()
            #expect(try await rig.store.entries(SiteJournalQuery(unhandledOnly: true)).isEmpty)
            try await rig.events("A").wait(for: "handled at A") { $0 == .handled(id: SiteLink.entryID(Self.key), by: "ctl (bob)",
                                                                                     at: rig.clock.date) }
        }
    }

    @Test func onlyOneDeskEscalatesARingNobodyAnswered() async throws {
        let settings = ["A", "B"].map { SiteSettings(desk: $0, escalateAfter: .seconds(30), escalateTo: "sip:guard@10.0.0.9") }
        let rig = try SiteRig(settings)
        try await rig.run {
            await Self.ringAll(rig, ["A", "B"])
            #expect(await rig["A"].escalate(Self.key))
            #expect(await !rig["B"].escalate(Self.key))
            let claim = try await rig.store.call(Self.key)?.claim
            #expect(claim?.kind == .escalated && claim?.target == "sip:guard@10.0.0.9")
            // A desk answering after the escalation does not take the call from it.
            await rig["B"].answered(Self.key)
            await rig["B"].flushed()
            #expect(try await rig.store.call(Self.key)?.claim?.kind == .escalated)
        }
    }

    @Test func afterEscalateAfterOneDeskTransfersAndNoneOnceTheCallWasAnswered() async throws {
        let settings = ["A", "B"].map { SiteSettings(desk: $0, escalateAfter: .seconds(30), escalateTo: "sip:guard@10.0.0.9") }
        let rig = try SiteRig(settings)
        try await rig.run {
            await Self.ringAll(rig, ["A", "B"])
            let targets = try await withThrowingTaskGroup(of: String?.self) { group in
                for desk in ["A", "B"] { group.addTask { await rig[desk].escalationDue(Self.key) } }
                try await rig.clock.waitForSleeper(endingIn: .seconds(30))
                try await rig.clock.waitForSleepers(4)
                rig.clock.advance(by: .seconds(30))
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(targets.compactMap { $0 } == ["sip:guard@10.0.0.9"], "\(targets)")
            // A second ring, answered at B in time: nobody escalates it.
            let answered = SiteCallKey("fork-2@10.0.0.2")
            #expect(await rig["A"].ringing(answered, panel: "entrance", caller: "1001") == .ring)
            await rig["B"].answered(answered)
            try await rig.events("A").wait(for: "B's claim at A") {
                if case .callChanged(let call) = $0 { call.key == answered && call.claim != nil } else { false }
            }
            try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask { await rig["A"].escalationDue(answered) }
                try await rig.clock.waitForSleeper(endingIn: .seconds(30))
                rig.clock.advance(by: .seconds(30))
                #expect(try await group.next()! == nil)
            }
        }
    }

    @Test func theEntryIdOfAForkedCallIsTheSameAtEveryDesk() {
        #expect(SiteLink.entryID(Self.key) == SiteLink.entryID(SiteCallKey("fork-1@10.0.0.2")))
        #expect(SiteLink.entryID(Self.key) != SiteLink.entryID(SiteCallKey("fork-2@10.0.0.2")))
    }
}
