import Foundation
import Testing
import IntercomBase
import IntercomTestSupport
@testable import IntercomCLI

/// `intercom log`'s table shows each entry's id, which `log --play ID` takes (issue 25).
@Suite struct LogTableTests {
    @Test func tableStartsWithTheEntryIDs() {
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        // The daemon's copy of an operator's entry has a row; the same entry fetched live has none.
        var stored = JournalEntry.operatorEvent(operator: "home", event: "call_missed", eventText: "missed call",
                                                uuid: "u0", time: time, door: "Entrance", who: "+7900", flat: nil,
                                                address: nil, pictureURL: nil, detail: nil)
        stored.id = 42
        stored.clip = "/tmp/c.mkv"
        let live = JournalEntry.operatorEvent(operator: "home", event: "opened_by_app", eventText: "opened by the app",
                                              uuid: "u1", time: time, door: "Entrance", who: "+7900", flat: nil,
                                              address: nil, pictureURL: nil, detail: nil)
        let lines = LogCommand.table([stored, live]).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("ID  TIME"), "\(lines)")
        #expect(lines[1].hasPrefix("42  ") && lines[1].contains("[clip]"), "\(lines)")
        #expect(lines[2].hasPrefix("-   "), "\(lines)")
    }

    /// A failed transfer is a line of its own: to whom and why, the other side's words escaped.
    @Test func aFailedTransferShowsWhomAndWhy() throws {
        let directory = try TestDirectory(prefix: "intercom-log-transfer")
        let journal = try Journal(directory: directory.path)
        let row = try journal.transferTried(panel: "entrance", call: CallID("c1"), target: "Flat12 <sip:flat12@10.0.0.7>",
                                            mode: "attended", ok: false, error: "busy (486 Busy\u{1B}[2J Here)", at: Date())
        let lines = LogCommand.table(try journal.entries()).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[1].hasPrefix("\(row)   ") && lines[1].contains("entrance") && lines[1].contains("transfer to Flat12 <sip:flat12@10.0.0.7>")
                && lines[1].contains("attended: FAILED: busy (486 Busy"), "\(lines)")
        #expect(!lines[1].contains("\u{1B}"), "\(lines)")
    }
}
