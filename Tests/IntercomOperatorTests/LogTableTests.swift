import Foundation
import Testing
import IntercomBase
@testable import IntercomCLI

/// `intercom log`'s table shows each entry's id, which `log --play ID` takes (issue 25).
@Suite struct LogTableTests {
    @Test func tableStartsWithTheEntryIDs() {
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        var call = JournalEntry(id: 42, kind: .call, time: time, panel: "porch", call: "c1", caller: "sip:100001@10.0.0.5",
                                ended: time, outcome: "remote_hangup", durationSeconds: 3, answeredBy: "user", detail: nil,
                                method: nil, ok: nil, error: nil, firstPicture: nil, answerPicture: nil)
        call.clip = "/tmp/c.mkv"
        // An operator's entry fetched live has no row: no id to play.
        let live = JournalEntry.operatorEvent(operator: "home", event: "opened_by_app", eventText: "opened by the app",
                                              uuid: "u1", time: time, door: "Entrance", who: "+7900", flat: nil,
                                              address: nil, pictureURL: nil, detail: nil)
        let lines = LogCommand.table([call, live]).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("ID  TIME"), "\(lines)")
        #expect(lines[1].hasPrefix("42  ") && lines[1].contains("[clip]"), "\(lines)")
        #expect(lines[2].hasPrefix("-   "), "\(lines)")
    }
}
