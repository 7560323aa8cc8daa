import Foundation
import IntercomBase
@testable import IntercomTUI
import Testing

/// At 80 columns a message never loses what it says to do: it wraps onto rows the layout takes
/// from the picture or the tiles, and the screen's own long texts put the advice first.
@Suite struct MessageWrapTests {
    /// The attended-transfer refusal as the engine words it, with the screen's prefix.
    static let refusal = "transfer: no attended transfer to flat12 (sip:flat12@127.0.0.1:5070): liblinphone leaves port 5070 "
        + "out of the hand-over, so the caller would call 127.0.0.1:5060; transfer blind instead (t, 'intercom ctl "
        + "transfer flat12') or reach the target on port 5060 (its SIP server)"

    @Test func aLongMessageWrapsAndNothingIsCut() {
        var model = ScreenModel()
        model.fail(Self.refusal)
        let line = try! #require(model.statusLine(now: Date()))
        let rows = line.rows(cols: 80)
        #expect(rows.count == 3 && rows.allSatisfy { $0.count <= 78 }, "\(rows)")
        let words = rows.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        // Four rows' worth: the advice comes first and whole, the reason after it is what is shortened.
        #expect(words.hasPrefix("transfer blind instead (t, 'intercom ctl transfer flat12') or reach the target on port 5060 "
                                + "(its SIP server) — transfer: no attended transfer to flat12") && words.hasSuffix("…"), "\(words)")
        #expect(model.messageRows(cols: 80, now: Date()) == 3)
        // At 120 columns it all fits in three rows, in its own order.
        let wide = line.rows(cols: 120).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(wide == Self.refusal, "every word is on the screen, none cut")
        let layout = Layout.of(cols: 80, rows: 24, messageRows: 3)
        #expect(layout.messageRow == 20 && layout.keysRow == 23 && layout.picture.row + layout.picture.rows <= 20)
        #expect(Layout.of(cols: 80, rows: 24) == Layout.of(cols: 80, rows: 24, messageRows: 1), "a short message keeps the layout")
        #expect(ScreenText.kioskTileRows(24, model, messageRows: 3) == 22)
    }

    @Test func theTransferTimeoutSaysTheCallIsStillHereFirst() {
        var model = ScreenModel()
        let ring = IntercomEvent.CallRef(id: CallID("c1"), panel: "entrance", from: "sip:1@x")
        model.apply(IntercomEvent(.callIncoming(ring)))
        model.pendingTransfer = (ring.id, "flat12", Date(timeIntervalSince1970: 0))
        model.tick(now: Date(timeIntervalSince1970: 36))
        let text = try! #require(model.message?.text)
        #expect(text.hasPrefix("entrance is still here: its transfer to flat12 timed out"))
        #expect(TextFit.ellipsize(text, 78).hasPrefix("entrance is still here"), "even shortened the advice stays")
        #expect(model.statusLine(now: Date(timeIntervalSince1970: 37))?.rows(cols: 80).count == 2)
    }

    @Test func aMessageLongerThanThreeRowsEndsInAnEllipsisOnTheThird() {
        let line = StatusLine(text: String(repeating: "word ", count: 80), style: .warn)
        let rows = line.rows(cols: 40)
        #expect(rows.count == StatusLine.maxRows && rows.last?.hasSuffix("…") == true && rows.allSatisfy { $0.count <= 38 })
    }
}
