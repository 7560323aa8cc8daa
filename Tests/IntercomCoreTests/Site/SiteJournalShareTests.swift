import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomTestSupport
import Synchronization
import Testing

/// The journal shared (issue 40): what a desk's journal finished reaches the site once, under an id
/// every replay repeats; a forked call keyed at several desks is one entry; a missed call handled at
/// one desk leaves every desk's queue, the other desks' own journals included.
@Suite(.removesTestFolders) struct SiteJournalShareTests {
    static func entry(row: Int64, outcome: String = "missed", kind: JournalEntry.Kind = .call, call: String = "c1") throws -> JournalEntry {
        var entry = try SiteRig.journalEntry(kind, outcome: outcome)
        entry.id = row
        entry.call = kind == .call ? call : nil
        return entry
    }

    /// Both desks missed one forked call: each with its own call id and row, the same key named by
    /// the call side, each sharing its entry. A's entry.
    @discardableResult
    static func missedAtBoth(_ rig: SiteRig, _ key: SiteCallKey) async throws -> JournalEntry {
        await rig["A"].keyCall(CallID("a-\(key)"), key)
        await rig["B"].keyCall(CallID("b-\(key)"), key)
        let atA = try Self.entry(row: 21, call: "a-\(key)")
        await rig["A"].share(atA)
        await rig["B"].share(try Self.entry(row: 5, call: "b-\(key)"))
        for desk in ["A", "B"] { await rig[desk].flushed() }
        return atA
    }

    @Test func aDeskEntryReachesTheSiteOnceUnderAnIdEveryReplayRepeats() async throws {
        let rig = try SiteRig("A")
        try await rig.run {
            let door = try Self.entry(row: 7, kind: .door)
            await rig["A"].share(door)
            await rig["A"].share(door)
            await rig["A"].flushed()
            #expect(rig.store.journal.map(\.id) == [SiteLink.entryID(desk: "A", row: 7)])
            #expect(rig.store.journal.first?.desk == "A", "the site entry names the desk that holds its pictures")
            #expect(rig.store.journal.first?.entry.kind == .door)
        }
    }

    @Test func aForkedCallKeyedAtTwoDesksIsOneEntryAtTheSite() async throws {
        let rig = try SiteRig("A", "B")
        try await rig.run {
            let key = SiteCallKey("fork-1@10.0.0.2")
            try await Self.missedAtBoth(rig, key)
            #expect(rig.store.journal.map(\.id) == [SiteLink.entryID(key)])
            #expect(rig.store.journal.first?.missed == true)
        }
    }

    @Test func aMissedCallHandledAtOneDeskLeavesEveryQueueWithWhoDidIt() async throws {
        let rig = try SiteRig("A", "B")
        try await rig.run {
            let atA = try await Self.missedAtBoth(rig, SiteCallKey("fork-2@10.0.0.2"))
            #expect(try await rig.store.entries(SiteJournalQuery(unhandledOnly: true)).count == 1)
            await rig["A"].handledHere(atA, by: "anna")
            await rig["A"].flushed()
            #expect(try await rig.store.entries(SiteJournalQuery(unhandledOnly: true)).isEmpty)
            #expect(rig.store.journal.first?.entry.handledBy == "anna")
            // B hears of it on the feed, and knows its own row of that entry.
            let handled = try await rig.events("B").wait(for: "handled") { if case .handled = $0 { true } else { false } }
            guard case .handled(let id, let who, _) = handled else { return }
            #expect(who == "anna")
            #expect(await rig["B"].localRow(id) == 5)
        }
    }

    @Test func entriesWrittenDuringAnOutageAreSentInOrderWhenTheStoreIsBack() async throws {
        let rig = try SiteRig("A")
        try await rig.run {
            rig.store.reachable = false
            for row in Int64(1)...3 { await rig["A"].share(try Self.entry(row: row, kind: .door)) }
            try await rig.events("A").wait(for: "unreachable") { $0.isUnreachable }
            #expect(rig.store.journal.isEmpty)
            rig.store.reachable = true
            try await rig.clock.waitForSleeper(endingIn: .seconds(2))
            rig.clock.advance(by: .seconds(2))
            _ = try await rig.events("A").wait(for: "reachable") { $0.replayed != nil }
            #expect(rig.store.journal.map(\.id) == (Int64(1)...3).map { SiteLink.entryID(desk: "A", row: $0) })
        }
    }

    /// The recorder hands each entry on once it is whole: a call at its end, a door opening at once.
    @Test func theRecorderHandsOnACallAtItsEndAndADoorOpeningAtOnce() async throws {
        let directory = try TestDirectory(prefix: "intercom-site-journal")
        defer { withExtendedLifetime(directory) {} }
        let handed = Mutex<[JournalEntry]>([])
        let recorder = JournalRecorder(journal: try Journal(directory: directory.path), pictures: NoPictures(), logger: .silent,
                                       clock: ManualClock(), finished: { entry in handed.withLock { $0.append(entry) } })
        let call = IntercomEvent.CallRef(id: CallID("c9"), panel: "entrance", from: "sip:100001@127.0.0.1")
        await recorder.record(IntercomEvent(.callIncoming(call)))
        #expect(handed.withLock { $0 }.isEmpty, "a ringing call is not whole yet")
        await recorder.record(IntercomEvent(.doorOpened(panel: "entrance", call: call, door: "main", method: "http", by: .ctl,
                                                        ok: true, error: nil)))
        await recorder.record(IntercomEvent(.callEnded(call, reason: .missed, durationSeconds: 0)))
        await recorder.settle()
        #expect(handed.withLock { $0 }.map(\.kind) == [.door, .call])
        #expect(handed.withLock { $0 }.last?.outcome == "missed")
    }

    /// An operator's door opened from this desk is the desk's act: shared like a panel's, with who
    /// asked. The operator's own entries (its flat's event log, a share that ended) are the flat's:
    /// they stay in this desk's journal (DECISIONS: a site shares what the desks did, not the flats' logs).
    @Test func anOperatorDoorOpenedHereIsSharedAndTheOperatorsOwnEntriesStayHere() async throws {
        let directory = try TestDirectory(prefix: "intercom-site-journal")
        defer { withExtendedLifetime(directory) {} }
        let handed = Mutex<[JournalEntry]>([])
        let journal = try Journal(directory: directory.path)
        let recorder = JournalRecorder(journal: journal, pictures: NoPictures(), logger: .silent,
                                       clock: ManualClock(), finished: { entry in handed.withLock { $0.append(entry) } })
        await recorder.record(IntercomEvent(.doorOpened(panel: "home", call: nil, door: "home:1:0", method: "operator", by: .ctl,
                                                        ok: true, error: nil), who: FaceIdentity(.ctl, user: "anna")))
        await recorder.record(IntercomEvent(.shareExpired(ShareExpiry(operatorName: "home", flatId: "7", phone: "79001112233",
                                                                      until: ManualClock.epoch, address: "Main st 1"))))
        await recorder.settle()
        let shared = handed.withLock { $0 }
        #expect(shared.map(\.kind) == [.door] && shared.first?.panel == "home" && shared.first?.detail == "home:1:0"
                && shared.first?.who?.user == "anna", "\(shared)")
        #expect(try journal.entries(JournalQuery()).map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.door, .operatorEvent])
    }

    struct NoPictures: JournalPictureSource {
        func peepholeJPEG(call: CallID, panel: String?) -> Data? { nil }
        func videoJPEG(call: CallID) async -> Data? { nil }
    }
}
