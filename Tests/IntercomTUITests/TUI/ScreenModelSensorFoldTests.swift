import Foundation
import IntercomBase
import IntercomCore
@testable import IntercomTUI
import Testing

/// "Recent" lists a door opening once, not with the panel's door sensor going on beside it (issue 25).
@Suite struct ScreenModelSensorFoldTests {
    @Test func aSensorEchoingAnOpeningIsNotListed() {
        var model = ScreenModel()
        let t = Date(timeIntervalSince1970: 1_800_000_000)
        // The alarm line can come just before the HTTP answer that reports the opening.
        model.apply(IntercomEvent(.panelEvent(panel: "porch", kind: "door", state: "on"), time: t))
        model.apply(IntercomEvent(.doorOpened(panel: "porch", call: nil, door: "main", method: "http", by: .key, ok: true,
                                              error: nil), time: t.addingTimeInterval(0.1)))
        model.apply(IntercomEvent(.panelEvent(panel: "porch", kind: "door", state: "off"), time: t.addingTimeInterval(1)))
        model.apply(IntercomEvent(.panelEvent(panel: "porch", kind: "door", state: "on"), time: t.addingTimeInterval(1.5)))
        model.apply(IntercomEvent(.panelEvent(panel: "porch", kind: "door", state: "off"), time: t.addingTimeInterval(2.5)))
        #expect(model.recent.count == 1 && model.recent.first?.contains("door main of porch opened") == true, "\(model.recent)")
        // A key at the panel a minute later is news.
        model.apply(IntercomEvent(.panelEvent(panel: "porch", kind: "door", state: "on"), time: t.addingTimeInterval(60)))
        #expect(model.recent.count == 2 && model.recent.first?.hasSuffix("porch: door") == true, "\(model.recent)")
    }
}
