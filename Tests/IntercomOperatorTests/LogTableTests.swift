import Foundation
import Testing
import IntercomBase
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
}
