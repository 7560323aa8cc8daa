import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomTestSupport
import Testing

/// A write to the site never makes the desk wait (issue 40): it is kept in the outbox and the
/// caller goes on, while the link's sender sends the outbox in order. A frozen store (held: its
/// calls neither answer nor fail) holds no caller; the writes reach it in order once it answers,
/// and an outage in the middle loses none and sends none twice.
@Suite struct SiteSenderTests {
    static let key = SiteCallKey("fork-1@10.0.0.2")

    static func door(_ row: Int64) throws -> JournalEntry {
        var entry = try SiteRig.journalEntry(.door, outcome: nil)
        entry.id = row
        return entry
    }

    /// The writes that reached the store, heartbeats aside.
    static func sent(_ store: FakeSiteStore) -> [String] {
        store.writes.all.filter { !$0.hasPrefix("heartbeat") }
    }

    /// Desk A's link running on a store frozen from the start (released when `body` ends, however it ends).
    static func frozen(_ body: (SiteRig, SiteLink) async throws -> Void) async throws {
        let rig = try SiteRig("A")
        try await rig.run {
            rig.store.hold()
            defer { rig.store.release() }
            try await body(rig, rig["A"])
        }
    }

    /// A's first write on its way (held in the frozen store) fails as the store goes down under it,
    /// and A says the site is unreachable.
    static func storeGoesDownUnderTheSender(_ rig: SiteRig) async throws {
        try await rig.store.waitForHeldCalls(1)
        rig.store.reachable = false
        rig.store.release()
        try await rig.events("A").wait(for: "unreachable") { $0.isUnreachable }
    }

    @Test func aFrozenStoreHoldsNoWriterAndGetsTheWritesInOrderOnceItAnswers() async throws {
        try await Self.frozen { rig, link in
            // Each returns with the store frozen (a real-time guard: a caller held by the store fails here).
            try await TestPatience.within(.seconds(5), "the desk's writes with the store frozen") {
                #expect(await link.ringing(Self.key, panel: "entrance", caller: "1001") == .ring)
                await link.answered(Self.key)
                await link.publish(panel: "entrance", kind: .guest, value: "off")
                await link.ended(Self.key, reason: "hangup")
                await link.journal(try Self.door(7))
            }
            // The sender waits in the store with the first; the rest wait in the outbox.
            try await rig.store.waitForHeldCalls(1)
            #expect(Self.sent(rig.store).isEmpty)
            #expect(await link.outbox.pending.count == 5)
            rig.store.release()
            await link.flushed()
            #expect(Self.sent(rig.store) == ["ringing \(Self.key) at A", "claim \(Self.key) answered by A",
                                             "publish entrance guest off by A", "ended \(Self.key) at A hangup",
                                             "append \(SiteLink.entryID(desk: "A", row: 7).uuidString)"])
            #expect(await link.outbox.isEmpty)
            #expect(await link.unreachable == nil)
        }
    }

    @Test func writesAroundAnOutageReachTheSiteInOrderEachOnce() async throws {
        try await Self.frozen { rig, link in
            for row in Int64(1)...3 { await link.journal(try Self.door(row)) }
            try await Self.storeGoesDownUnderTheSender(rig)
            for row in Int64(4)...5 { await link.journal(try Self.door(row)) }
            // With the store down there is nothing to wait for: kept, not sent.
            await link.flushed()
            #expect(rig.store.journal.isEmpty)
            #expect(await link.outbox.pending.count == 5)
            rig.store.reachable = true
            rig.clock.advance(by: .seconds(2))
            let back = try await rig.events("A").wait(for: "reachable") { $0.replayed != nil }
            #expect(back.replayed == 5)
            // Back to sending beside the caller.
            await link.journal(try Self.door(6))
            await link.flushed()
            let ids = (Int64(1)...6).map { SiteLink.entryID(desk: "A", row: $0).uuidString }
            #expect(Self.sent(rig.store) == ids.map { "append \($0)" }, "\(rig.store.writes.all)")
            #expect(rig.store.journal.map(\.id.uuidString) == ids)
            #expect(rig.events("A").all.filter(\.isUnreachable).count == 1)
        }
    }

    /// A switch the sender could not send is cut off like one made during the outage: a later one
    /// from another desk wins when the store is back, and this desk says its own lost.
    @Test func aSwitchTheSenderCouldNotSendLosesToALaterOneAndSaysSo() async throws {
        let rig = try SiteRig("A", "B")
        try await rig.run {
            rig.store.hold()
            defer { rig.store.release() }
            let mine = await rig["A"].publish(panel: "entrance", kind: .calls, value: "off")
            try await Self.storeGoesDownUnderTheSender(rig)
            rig.store.reachable = true
            rig.clock.advance(by: .seconds(60))
            await rig["B"].publish(panel: "entrance", kind: .calls, value: "on")
            _ = try await rig.events("A").wait(for: "B's later switch at A") { $0.switchChange?.value == "on" }
            #expect(await rig["A"].lostSwitches == [mine])
        }
    }
}

/// A desk's engine with its store frozen: the answer's claim waits in the outbox, so `ctl answer`
/// replies at once, and the claim reaches the site when the store answers again.
@Suite struct SiteSenderEngineTests {
    @Test func anAnswerNeverWaitsForAFrozenStore() async throws {
        try await SiteSwitchEngineTests.twoDesks { a, _, store in
            store.hold()
            defer { store.release() }
            let id = a.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress,
                                  sipCallID: SiteCallEngineTests.callID)
            _ = try await a.incoming(id)
            _ = try await TestPatience.within(.seconds(5), "ctl answer with the store frozen") {
                try await a.intercom.execute(.answer(id))
            }
            _ = try await a.answered(id)
            store.release()
            await SiteSwitchEngineTests.flushed(a)
            let call = try await store.call(SiteCallKey(SiteCallEngineTests.callID))
            #expect(call?.claim?.desk == "A" && call?.legs.map(\.desk) == ["A"], "\(String(describing: call))")
        }
    }
}
