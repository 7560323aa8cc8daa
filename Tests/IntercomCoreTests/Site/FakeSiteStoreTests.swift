import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import Testing

/// The site store's rules as the fake keeps them, which the PostgreSQL store keeps too: the later
/// switch wins, the first claim takes a call, a journal entry is kept once by its id, a store that
/// is down throws `unreachable`, and the change feed reaches every stream.
@Suite struct FakeSiteStoreTests {
    static let t0 = ManualClock.epoch

    static func entry(_ id: UUID, desk: String) throws -> SiteJournalEntry {
        SiteJournalEntry(id: id, desk: desk, operatorName: nil, entry: try SiteRig.journalEntry(.door, outcome: nil))
    }

    @Test func theLaterSwitchWinsWhateverOrderItArrivesIn() async throws {
        let store = FakeSiteStore()
        let later = SiteSwitchChange(panel: "entrance", kind: .guest, value: "off", desk: "B", operatorName: "anna",
                                     at: Self.t0.addingTimeInterval(10))
        let earlier = SiteSwitchChange(panel: "entrance", kind: .guest, value: "2026-01-01T12:00:00Z", desk: "A",
                                       operatorName: nil, at: Self.t0)
        try await store.publish(later)
        try await store.publish(earlier)
        #expect(try await store.switches() == [later])
    }

    @Test func theFirstClaimTakesTheCall() async throws {
        let store = FakeSiteStore()
        let key = SiteCallKey("abc@10.0.0.2")
        for desk in ["A", "B"] { try await store.noteRinging(key, panel: "entrance", caller: "1001", desk: desk, at: Self.t0) }
        let won = try await store.claim(key, SiteCallClaim(kind: .answered, desk: "B", operatorName: "anna", at: Self.t0))
        let lost = try await store.claim(key, SiteCallClaim(kind: .escalated, desk: "A", operatorName: nil,
                                                            target: "sip:guard@10.0.0.9", at: Self.t0))
        #expect(won.claim?.desk == "B" && lost.claim?.desk == "B" && lost.claim?.operatorName == "anna")
        #expect(lost.legs.map(\.desk) == ["A", "B"] && lost.active)
        try await store.noteEnded(key, desk: "A", reason: "answered_elsewhere", at: Self.t0)
        try await store.noteEnded(key, desk: "B", reason: "hangup", at: Self.t0)
        #expect(try await store.activeCalls().isEmpty)
    }

    @Test func anEntryIsKeptOnceByItsId() async throws {
        let store = FakeSiteStore()
        let id = UUID()
        try await store.append([try Self.entry(id, desk: "A")])
        try await store.append([try Self.entry(id, desk: "A"), try Self.entry(UUID(), desk: "B")])
        #expect(try await store.entries(SiteJournalQuery()).count == 2)
        #expect(try await store.entries(SiteJournalQuery(desk: "b")).map(\.desk) == ["B"])
        let handled = try await store.markHandled(id, by: "ctl (anna)", at: Self.t0)
        #expect(handled.entry.handledBy == "ctl (anna)")
        await #expect(throws: SiteStoreError.noEntry(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)))) {
            try await store.markHandled(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)), by: "x", at: Self.t0)
        }
    }

    @Test func aStoreThatIsDownThrowsUnreachableAndKeepsWhatItHad() async throws {
        let store = FakeSiteStore()
        try await store.append([try Self.entry(UUID(), desk: "A")])
        store.reachable = false
        await #expect(throws: SiteStoreError.self) { try await store.ping() }
        await #expect(throws: SiteStoreError.self) { try await store.entries(SiteJournalQuery()) }
        store.reachable = true
        #expect(try await store.entries(SiteJournalQuery()).count == 1)
    }

    @Test func everyStreamHearsEveryChange() async throws {
        let store = FakeSiteStore()
        let (first, second) = (store.changes(), store.changes())
        let change = SiteSwitchChange(panel: "entrance", kind: .calls, value: "off", desk: "A", operatorName: nil, at: Self.t0)
        try await store.publish(change)
        var (a, b) = (first.makeAsyncIterator(), second.makeAsyncIterator())
        #expect(await a.next() == .switchChanged(change))
        #expect(await b.next() == .switchChanged(change))
        store.close()
        #expect(await a.next() == nil)
    }
}
