import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import Testing

/// The engine's journal commands go to whatever `JournalStore` it was given: the SQLite journal
/// in the daemon, a fake here (and a site's shared store later) without the commands changing.
@Suite struct JournalStoreTests {
    @Test func theJournalCommandsUseTheStoreTheEngineWasGiven() async throws {
        let time = RFC3339.string(ManualClock.epoch)
        let entry = try #require(JournalEntry(json: .object([("id", .integer(7)), ("kind", .string("call")),
                                                             ("time", .string(time)), ("panel", .string("gate"))])))
        let store = FakeJournalStore([entry])
        try await EngineRig.run(panels: [PanelConfig(name: "gate", url: "http://127.0.0.1:9")]) { rig throws in
            rig.intercom.useJournal(store)
            let listed = try await rig.intercom.execute(.journal(JournalQuery()))
            #expect(listed == .array([entry.json]))
            let handled = try await rig.intercom.execute(.handled(entry: 7, by: "desk"))
            #expect(store.handled.all == ["7 by desk"])
            #expect(handled["id"] == .integer(7))
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.callBack(entry: 7, by: "desk")) }
        }
    }
}
