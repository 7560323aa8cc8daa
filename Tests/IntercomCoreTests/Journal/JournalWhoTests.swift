import Foundation
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomBase

/// The journal keeps who acted beside its `by`: the face that answered a call and the one that
/// opened a door, in `intercom log --json` as `who` and in its lines; old entries have none.
@Suite(.removesTestFolders) struct JournalWhoTests {
    @Test func theFaceThatAnsweredAndTheOneThatOpenedAreKept() async throws {
        let (recorder, directory) = try JournalRecorderStateTests.recorder()
        defer { withExtendedLifetime(directory) {} }
        let c = JournalRecorderStateTests.call(1)
        let kiosk = FaceIdentity(.screen, screen: 2, kind: "kiosk", user: "anna")
        let ctl = FaceIdentity(.ctl, user: "root")
        await recorder.record(IntercomEvent(.callIncoming(c)))
        await recorder.record(IntercomEvent(.callAnswered(c, by: .user), who: kiosk))
        await recorder.record(IntercomEvent(.doorOpened(panel: "entrance", call: c, door: "main", method: "http", by: .ctl,
                                                        ok: true, error: nil), who: ctl))
        await recorder.record(IntercomEvent(.callEnded(c, reason: .hangup, durationSeconds: 3), who: ctl))
        await recorder.record(IntercomEvent(.doorOpened(panel: "entrance", call: nil, door: "alt", method: "http", by: .hook,
                                                        ok: true, error: nil)))
        await recorder.settle()
        let entries = try recorder.journal.entries()
        let call = try #require(entries.first { $0.kind == .call })
        #expect(call.answeredBy == "user" && call.who == kiosk, "\(call)")
        #expect(call.json["who"] == kiosk.json && call.json["answered_by"] == .string("user"))
        #expect(call.outcomeText == "hangup (answered: user, screen 2 (kiosk, anna))")
        let doors = entries.filter { $0.kind == .door }
        #expect(doors.map(\.who) == [ctl, nil])
        #expect(doors.first?.outcomeText == "opened by http — ctl (root)")
        #expect(doors.last?.json["who"] == .null, "a face nobody named: null")
        // `ctl journal` reads the daemon's entries back as `intercom log` prints them.
        #expect(entries.compactMap { JournalEntry(json: $0.json) }.map(\.who) == entries.map(\.who))
    }
}
