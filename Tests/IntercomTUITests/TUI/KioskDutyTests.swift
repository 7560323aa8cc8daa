import Foundation
import IntercomBase
@testable import IntercomTUI
import IntercomTestSupport
import Testing

/// Issue 38 on the screen's model, with the screen's clock passed in: missed calls counted on
/// every screen and listed first, a digit's pick that ends, keys that act on the marked tile,
/// a held call said to be on hold, and do-not-disturb beside guest mode said.
@Suite struct KioskDutyTests {
    static let t0 = Date(timeIntervalSince1970: 1_764_600_000)

    func ref(_ panel: String) -> IntercomEvent.CallRef {
        IntercomEvent.CallRef(id: CallID("c-\(panel)"), panel: panel, from: "sip:\(panel)@x")
    }

    func event(_ kind: IntercomEvent.Kind, at seconds: TimeInterval) -> IntercomEvent {
        IntercomEvent(kind, time: Self.t0.addingTimeInterval(seconds))
    }

    func kiosk(_ panels: [String]) -> ScreenModel {
        var model = ScreenModel()
        model.kioskMode = true
        model.updateDoors(panels.map(DoorListing.panel))
        return model
    }

    static let paging = ScreenModel.KioskPaging(page: 0, pages: 1, shown: 3)

    @Test func twoUnansweredCallsAreCountedOnEveryScreenAndSayHowLongTheyRang() {
        var model = kiosk(["lobby", "barrier", "yard"])
        for panel in ["lobby", "yard"] {
            model.apply(event(.callIncoming(ref(panel)), at: 0))
            model.apply(event(.callEnded(ref(panel), reason: .missed, durationSeconds: 0), at: 60))
        }
        #expect(model.missed.count == 2)
        #expect(model.outcome?.text == "yard: missed (rang 1:00)", "not the talk time, 0:00")
        for width in [200, 80, 40] {
            let bar = model.keyBar(kiosk: Self.paging, directory: [], now: Self.t0).fit(width)
            #expect(bar.contains("2 missed calls: l"), "\(width): \(bar)")
        }
        var plain = model
        plain.kioskMode = false
        #expect(plain.keyBar(kiosk: nil, directory: []).fit(80).contains("2 missed calls: l"))
        #expect(plain.infoLines(now: Self.t0, height: 20).first == InfoLine("2 missed calls to return: l lists them first", .warn))
        // The journal written since has both, one handled: no call is counted twice.
        let lobby = entry(1, call: "c-lobby", handledBy: nil), yard = entry(2, call: "c-yard", handledBy: "ctl")
        model.missed.read(unhandled: [lobby], recent: [lobby, yard])
        #expect(model.missed.count == 1 && model.missed.phrase == "1 missed call")
        model.missed.read(unhandled: [], recent: [lobby, yard])
        #expect(model.missed.count == 0 && model.missedItem == nil)
    }

    func entry(_ id: Int64, call: String, handledBy: String?) -> JournalEntry {
        var entry = JournalEntry.operatorEvent(operator: "", event: "", eventText: "", uuid: "", time: Self.t0, door: nil, who: nil,
                                               flat: nil, address: nil, pictureURL: nil, detail: nil)
        (entry.id, entry.kind, entry.call, entry.outcome, entry.handledBy) = (id, .call, call, "missed", handledBy)
        return entry
    }

    @Test func theJournalListsMissedCallsToReturnFirstWithHowLongTheyRang() throws {
        let directory = try TestDirectory(prefix: "tui-missed")
        let journal = try Journal(directory: directory.path)
        let missed = try journal.callStarted(panel: "lobby", call: CallID("c1"), caller: "sip:lobby@x", at: Self.t0)
        try journal.callEnded(missed, outcome: "missed", duration: 0, at: Self.t0.addingTimeInterval(62))
        for n in 2...4 {
            let row = try journal.callStarted(panel: "yard", call: CallID("c\(n)"), caller: "sip:yard@x", at: Self.t0.addingTimeInterval(Double(n) * 100))
            try journal.callAnswered(row, by: "user")
            try journal.callEnded(row, outcome: "hangup", duration: 5, at: Self.t0.addingTimeInterval(Double(n) * 100 + 5))
        }
        let handled = try journal.callStarted(panel: "gate", call: CallID("c9"), caller: "sip:gate@x", at: Self.t0.addingTimeInterval(-99))
        try journal.callEnded(handled, outcome: "missed", duration: 0, at: Self.t0.addingTimeInterval(-89))
        let handledEntry = try journal.markHandled(handled, by: "ctl", at: Self.t0)
        #expect(JournalBrowser.line(handledEntry).hasSuffix("gate missed, rang 0:10 — handled by ctl"), "\(JournalBrowser.line(handledEntry))")
        let browser = JournalBrowser.load(directory: directory.path)
        #expect(browser.unhandled == 1 && browser.entries.count == 5)
        #expect(browser.entries.first?.call == "c1" && JournalBrowser.line(browser.entries[0]).hasSuffix("lobby missed, rang 1:02"),
                "\(browser.entries.map(JournalBrowser.line))")
        var model = ScreenModel()
        model.journal = browser
        #expect(model.infoLines(now: Self.t0, height: 10).first == InfoLine("Journal: 1 missed call first", .heading))
        let read = try #require(JournalBrowser.missedCalls(directory: directory.path))
        model.missed.read(unhandled: read.unhandled, recent: read.recent)
        #expect(model.missed.count == 1)
    }

    @Test func aDigitsPickLastsWhileItsTileRingsThenFifteenSecondsCountedDown() {
        var model = kiosk(["lobby", "barrier", "yard"])
        model.selectDoor(1, now: Self.t0)
        #expect(model.openChoice(door: .main) == .open("barrier"))
        model.tick(now: Self.t0.addingTimeInterval(3))
        #expect(model.keyBar(kiosk: Self.paging, directory: [], now: Self.t0.addingTimeInterval(3)).fit(200)
            .contains("o open barrier (12 s)"))
        model.tick(now: Self.t0.addingTimeInterval(15))
        #expect(model.chosenDoor == nil && !model.doorFocus, "forgotten after 15 s")
        #expect(model.openChoice(door: .main) == .pickFirst("no door picked: press its number (1-3), then o"),
                "o with nothing picked and no call opens nothing")
        #expect(model.keyBar(kiosk: Self.paging, directory: [], now: Self.t0).fit(200).contains("o open door: pick 1-3 first"))
        // Picked while its tile rings: kept as long as the call, then 15 s.
        model.apply(event(.callIncoming(ref("yard")), at: 20))
        model.selectDoor(2, now: Self.t0.addingTimeInterval(20))
        model.tick(now: Self.t0.addingTimeInterval(90))
        #expect(model.chosenDoor == "yard" && model.pickLeft(now: Self.t0.addingTimeInterval(90)) == nil)
        model.apply(event(.callEnded(ref("yard"), reason: .missed, durationSeconds: 0), at: 95))
        model.tick(now: Self.t0.addingTimeInterval(100))
        #expect(model.chosenDoor == "yard" && model.pickLeft(now: Self.t0.addingTimeInterval(100)) == 5)
        model.tick(now: Self.t0.addingTimeInterval(105))
        #expect(model.chosenDoor == nil && model.openChoice(door: .main) != .open("yard"), "80 s later, o opens nothing")
    }

    @Test func aAndDActOnTheMarkedTileAndTheKeyBarSaysSo() {
        var model = kiosk(["lobby", "barrier"])
        model.apply(event(.callIncoming(ref("lobby")), at: 0))
        model.selectDoor(1, now: Self.t0)
        #expect(model.doorFocus && model.focusedPanel == "barrier")
        let bar = model.keyBar(kiosk: Self.paging, directory: [], now: Self.t0).fit(200)
        #expect(!bar.contains("a answer") && bar.contains("Tab back to the calls (1)") && bar.contains("o open barrier (15 s)"), "\(bar)")
        #expect(model.ringTarget == .none("barrier is not ringing: Tab goes back to the calls, a ringing tile's number picks it"))
        model.apply(event(.callIncoming(ref("barrier")), at: 2))
        #expect(model.ringTarget == .call(CallID("c-barrier")), "the marked tile rings now: a answers it")
        #expect(model.keyBar(kiosk: Self.paging, directory: [], now: Self.t0).fit(200).hasPrefix(" a answer barrier"))
        model.selectNext()
        #expect(model.ringTarget == .call(CallID("c-lobby")) && !model.doorFocus)
    }

    @Test func aHeldCallSaysOnHoldAndTheLastVisitorFollowsTheCall() {
        var model = ScreenModel()
        for panel in ["lobby", "yard"] { model.apply(event(.callIncoming(ref(panel)), at: 0)) }
        model.apply(event(.callAnswered(ref("lobby"), by: .user), at: 1))
        model.apply(event(.callAnswered(ref("yard"), by: .user), at: 2))
        #expect(model.queueLine(now: Self.t0) == "queue: lobby on hold · ▶yard in call")
        model.apply(event(.transferConsult(ref("yard"), state: .calling, to: "sip:flat@x", target: "flat", consultCall: nil, error: nil), at: 3))
        #expect(model.calls.first { $0.panel == "yard" }?.held == true)
        model.apply(event(.transferConsult(ref("yard"), state: .cancelled, to: "sip:flat@x", target: "flat", consultCall: nil, error: nil), at: 4))
        #expect(model.calls.first { $0.panel == "yard" }?.held == false)
        var visitor = entry(7, call: "c-yard", handledBy: nil)
        (visitor.outcome, visitor.panel, visitor.firstPicture) = (nil, "yard", "/p.jpg")
        model.showLastVisitor(visitor, picture: "/p.jpg")
        model.apply(event(.callEnded(ref("yard"), reason: .hangup, durationSeconds: 9), at: 20))
        model.apply(event(.callEnded(ref("lobby"), reason: .hangup, durationSeconds: 9), at: 21))
        let lines = model.infoLines(now: Self.t0, height: 20).map(\.text)
        #expect(lines.contains { $0.contains("yard") && $0.contains("hangup") } && !lines.contains { $0.contains("in progress") }, "\(lines)")
        // Read again from a journal the daemon has not finished writing: still shown ended.
        model.showLastVisitor(visitor, picture: "/p.jpg")
        #expect(model.lastVisitor?.entry.outcome == "hangup")
    }

    @Test func doNotDisturbBesideGuestModeIsSaid() {
        var model = kiosk(["lobby"])
        model.apply(event(.panelPolicy(panel: "lobby", calls: false, guestUntil: Self.t0.addingTimeInterval(3600)), at: 0))
        #expect(model.message?.text == "lobby: do not disturb wins over guest mode: its calls are declined, no guest is let in")
        #expect(ScreenText.kioskStatus("lobby", model, now: Self.t0).0 == "do not disturb (wins over guest mode)")
        #expect(ScreenText.kioskStatus("lobby", model, now: Self.t0.addingTimeInterval(3601)).0 == "do not disturb")
    }

    @Test func aMutedMicrophoneWithNoCallIsShownAsTheNextCallsState() {
        var model = ScreenModel()
        model.apply(event(.audioChanged(muted: true, speaker: false, device: "default"), at: 0))
        #expect(model.infoLines(now: Self.t0, height: 20).contains(InfoLine("microphone muted: the next call starts muted (m unmutes)", .warn)))
        model.kioskMode = true
        #expect(model.keyBar(kiosk: Self.paging, directory: []).fit(80).hasPrefix(" m: next call starts muted"))
    }
}
