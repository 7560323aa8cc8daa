import Foundation
import IntercomBase
import IntercomCore
import IntercomPhone
@testable import IntercomTUI
import IntercomTestSupport
import Testing

/// Issue 25 on the screen: a call refused busy says so without a duration; in the journal, a
/// missed call nobody handled offers `c call back` (the engine's half: MissedCallQueueTests).
@Suite struct MissedCallKeysTests {
    /// Missed call 1 (refused busy) of panel-21, from a real journal, handled by `handledBy` when set.
    static func missed(handledBy: String? = nil) throws -> JournalEntry {
        let directory = try TestDirectory(prefix: "intercom-tui-missed")
        defer { withExtendedLifetime(directory) {} }
        let journal = try Journal(directory: directory.path)
        let row = try journal.callStarted(panel: "panel-21", call: CallID("c1"), caller: "sip:100021@127.0.0.1",
                                          at: Date(timeIntervalSince1970: 1_800_000_000))
        try journal.callEnded(row, outcome: "busy", duration: 0, at: Date(timeIntervalSince1970: 1_800_000_000))
        if let handledBy { try journal.markHandled(row, by: handledBy) }
        return try #require(try journal.entry(row))
    }

    @Test func aBusyRefusalIsSaidWithoutADuration() {
        var model = ScreenModel()
        let ref = IntercomEvent.CallRef(id: CallID("c21"), panel: "panel-21", from: "sip:100021@127.0.0.1")
        model.apply(IntercomEvent(.callIncoming(ref)))
        model.apply(IntercomEvent(.callEnded(ref, reason: .busy, durationSeconds: 0)))
        #expect(model.calls.isEmpty)
        #expect(model.recent.first?.hasSuffix("panel-21: missed: too many calls at once") == true, "\(model.recent)")
    }

    @Test func theJournalOffersCallBackForAMissedCallNobodyHandled() throws {
        var model = ScreenModel()
        let waiting = try Self.missed()
        model.journal = JournalBrowser(entries: [waiting])
        #expect(model.keyBar(kiosk: nil, directory: []).fit(200).contains("c call back"))
        #expect(JournalBrowser.line(waiting).hasSuffix("panel-21 missed (busy)"), "\(JournalBrowser.line(waiting))")
        let handled = try Self.missed(handledBy: "key (alice)")
        model.journal = JournalBrowser(entries: [handled])
        #expect(!model.keyBar(kiosk: nil, directory: []).fit(200).contains("c call back"))
        #expect(JournalBrowser.line(handled).hasSuffix("missed (busy) — handled by key (alice)"), "\(JournalBrowser.line(handled))")
    }
}
