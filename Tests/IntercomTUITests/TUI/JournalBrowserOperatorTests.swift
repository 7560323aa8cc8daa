import Foundation
import IntercomBase
@testable import IntercomTUI
import IntercomTestSupport
import Testing

/// The journal browser (`l`) lists the daemon's copy of an operator's event log readably, beside
/// the local entries, with nothing the operator's server sent reaching the screen raw.
@Suite struct JournalBrowserOperatorTests {
    @Test func operatorEntriesReadAsOperatorDoorEventAndWho() throws {
        let directory = try TestDirectory(prefix: "tui-journal")
        let journal = try Journal(directory: directory.path)
        let time = Date(timeIntervalSince1970: 1_764_573_239)
        try journal.doorOpened(panel: "entrance", call: nil, door: "main", method: "http", by: "key", ok: true, error: nil,
                               at: time.addingTimeInterval(-60))
        try journal.recordOperatorEvent(.operatorEvent(
            operator: "home", event: "call_missed", eventText: "missed call", uuid: "u1", time: time,
            door: "Entrance\u{1b}[2J 1", who: "79123456781", flat: "7", address: "Lenina 1", pictureURL: nil, detail: nil))
        let browser = JournalBrowser.load(directory: directory.path)
        #expect(browser.entries.count == 2)
        let lines = browser.entries.map(JournalBrowser.line)
        let local = LocalTime(time)
        let when = String(format: "%02d.%02d %02d:%02d", local.day, local.month, local.hour, local.minute)
        #expect(lines.contains { $0.hasPrefix(when + " home: Entrance") && $0.hasSuffix("1 missed call (79123456781)") }, "\(lines)")
        #expect(lines.allSatisfy { !$0.contains("\u{1b}") })
        #expect(lines.contains { $0.contains("entrance door main opened by http") })
    }
}
