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

    /// Issue 38: on an 80-column terminal the table fits: no picture path, the caller and the
    /// outcome cut with an ellipsis; wide enough, or piped (no width), every column whole.
    @Test func aTerminalTableFitsItsWidth() throws {
        let directory = try TestDirectory(prefix: "intercom-log-width")
        let journal = try Journal(directory: directory.path)
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let row = try journal.callStarted(panel: "entrance", call: CallID("c1"), caller: "sip:100001@192.168.100.150:5060;transport=udp", at: at)
        try journal.callEnded(row, outcome: "missed", duration: 0, at: at)
        try journal.noteCallBackFailed(row, why: "refused (Busy Here)", by: "ctl (alice)")
        var entries = try journal.entries()
        entries[0].firstPicture = directory.path + "/pictures/2027-01-15T08-00-00-entrance-c1-ring.jpg"
        let narrow = LogCommand.table(entries, width: 80).split(separator: "\n").map(String.init)
        #expect(narrow.allSatisfy { $0.count <= 80 }, "\(narrow.map { "\($0.count): \($0)" })")
        #expect(narrow[0] == "ID  TIME                 PANEL     CALLER            OUTCOME            DURATION", "\(narrow)")
        #expect(narrow[1].contains("sip:100001@192.…") && narrow[1].contains("missed — call ba…") && !narrow[1].contains(".jpg"), "\(narrow)")
        for whole in [LogCommand.table(entries, width: 250), LogCommand.table(entries)] {
            #expect(whole.contains("PICTURE") && whole.contains("-ring.jpg") && whole.contains("call back failed: refused (Busy Here), by ctl (alice)"),
                    "\(whole)")
        }
    }
}
