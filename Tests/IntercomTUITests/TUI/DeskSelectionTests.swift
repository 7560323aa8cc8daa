import Foundation
import IntercomBase
import IntercomCore
import IntercomPhone
@testable import IntercomTUI
import Testing

/// What the keys act on is always shown and named: the first call to ring stays selected while
/// others ring, Tab walks the calls in the order they came, the key bar names the selected call,
/// the queue line marks it; prompts cancel with Esc; failures stay until a key or 10 s.
@Suite struct DeskSelectionTests {
    func ref(_ n: Int) -> IntercomEvent.CallRef {
        IntercomEvent.CallRef(id: CallID("c\(n)"), panel: String(format: "panel-%02d", n), from: "sip:\(n)@x")
    }

    @Test func aNewRingDoesNotTakeTheSelectionAndTabWalksInArrivalOrder() {
        var model = ScreenModel()
        for n in [2, 6, 9] { model.apply(IntercomEvent(.callIncoming(ref(n)))) }
        #expect(model.selectedCall?.panel == "panel-02", "the first to ring stays selected")
        #expect(model.keyBar(kiosk: nil, directory: []).fit(200).hasPrefix(" a answer panel-02  d decline  Tab next call (3)"))
        #expect(model.queueLine(now: model.calls[0].since)
                == "queue: ▶panel-02 ringing 0:00 · panel-06 ringing 0:00 · panel-09 ringing 0:00")
        model.selectNext()
        #expect(model.selectedCall?.panel == "panel-06")
        model.selectNext()
        model.selectNext()
        #expect(model.selectedCall?.panel == "panel-02", "Tab wraps to the oldest")
        model.selectNext()
        // The selected call ends: the one that has waited longest is next.
        model.apply(IntercomEvent(.callEnded(ref(6), reason: .missed, durationSeconds: 0)))
        #expect(model.selectedCall?.panel == "panel-02")
        model.apply(IntercomEvent(.callAnswered(ref(9), by: .user)))
        #expect(model.selectedCall?.panel == "panel-09", "the answered call is shown")
        let bar = model.keyBar(kiosk: nil, directory: []).fit(200)
        #expect(bar.hasPrefix(" h hang up panel-09") && bar.contains("0-9 DTMF"), "\(bar)")
        #expect(model.infoLines(now: Date(), height: 20).contains(InfoLine("keys 0-9 * # are DTMF to panel-09", .dim)))
    }

    @Test func theKeyBarDropsLowKeysFirstAndKeepsHelp() {
        var model = ScreenModel()
        model.apply(IntercomEvent(.callIncoming(ref(2))))
        model.apply(IntercomEvent(.callAnswered(ref(2), by: .user)))
        let bar = model.keyBar(kiosk: nil, directory: [])
        let wide = bar.fit(200)
        #expect(wide == " h hang up panel-02  o open  0-9 DTMF  t transfer  T consult  m mute  s speaker  O 2nd door  g gate  ? help")
        for width in [79, 60, 40, 30, 24] {
            let text = bar.fit(width)
            #expect(text.count <= width && text.hasSuffix("? help"), "\(width): \(text)")
            // Every shown key is whole: each item is one of the bar's.
            let items = text.dropFirst().components(separatedBy: "  ")
            #expect(items.allSatisfy { item in bar.items.contains { $0.text == item } || item.hasSuffix("…") }, "\(width): \(text)")
        }
        #expect(bar.fit(46) == " h hang up panel-02  o open  0-9 DTMF  ? help")
        #expect(bar.fit(18) == " h hang…  ? help", "the essential key is shortened, never help")
    }

    @Test func escCancelsEveryPrompt() {
        var model = ScreenModel()
        model.transferPrompt = "h"
        model.transferCall = CallID("c1")
        var escaped = model.escape()
        #expect(escaped && model.transferPrompt == nil && model.transferCall == nil)
        model.quitAsked = true
        escaped = model.escape()
        #expect(escaped && !model.quitAsked)
        model.kiosk.apply(.startFilter)
        model.kiosk.apply(.type("x"))
        escaped = model.escape()
        #expect(escaped && model.kiosk.typing == nil && model.kiosk.filter.isEmpty)
        model.showHelp = true
        escaped = model.escape()
        #expect(escaped && !model.showHelp)
        escaped = model.escape()
        #expect(!escaped, "nothing open: Esc does nothing")
        #expect(model.keyBar(kiosk: nil, directory: []).fit(200).contains("q quit"))
        model.transferPrompt = ""
        #expect(model.keyBar(kiosk: nil, directory: ["flat12"]).fit(200)
                == " Enter transfer  Esc cancel  Tab complete  directory: flat12  ? help")
    }

    @Test func aFailureStaysUntilAKeyOrTenSeconds() {
        var model = ScreenModel()
        let panel = ref(2)
        model.apply(IntercomEvent(.callIncoming(panel)))
        model.apply(IntercomEvent(.callAnswered(panel, by: .user)))
        model.apply(IntercomEvent(.callTransferred(panel, to: "sip:flat12@x", target: "flat12", ok: false, error: "Not Found, 404")))
        let message = model.message
        #expect(message?.text == "transfer of panel-02 to flat12 failed: Not Found, 404" && message?.warn == true)
        #expect((message?.until.timeIntervalSinceNow ?? 0) > 9, "shown for 10 s")
        model.keyPressed()
        #expect(model.message == nil, "the next key dismisses it")
        model.say("door main of panel-02 opened (http)")
        model.keyPressed()
        #expect(model.message != nil, "a key leaves a plain message alone")
        model.apply(IntercomEvent(.doorOpened(panel: "panel-02", call: nil, door: "main", method: "http", by: .key,
                                              ok: false, error: "HTTP 401")))
        #expect(model.message?.text == "door main of panel-02 did not open (http): HTTP 401" && model.message?.warn == true)
    }

    @Test func aTransferWithNoOutcomeTimesOut() {
        var model = ScreenModel()
        let panel = ref(2)
        model.apply(IntercomEvent(.callIncoming(panel)))
        model.apply(IntercomEvent(.callAnswered(panel, by: .user)))
        let asked = Date()
        model.pendingTransfer = (panel.id, "flat12", asked)
        model.tick(now: asked.addingTimeInterval(10))
        #expect(model.pendingTransfer != nil && model.message == nil, "still waiting")
        model.tick(now: asked.addingTimeInterval(ScreenModel.transferPatience + 1))
        #expect(model.pendingTransfer == nil)
        #expect(model.message?.warn == true && model.message?.text.hasPrefix("panel-02 is still here: its transfer to flat12 timed out") == true)
        // An outcome ends the wait at once.
        model.pendingTransfer = (panel.id, "flat12", asked)
        model.apply(IntercomEvent(.callTransferred(panel, to: "sip:flat12@x", target: "flat12", ok: true, error: nil)))
        #expect(model.pendingTransfer == nil)
    }
}
