import Foundation
import IntercomBase
@testable import IntercomTUI
import Testing

/// Issue 40 on the screens' title bar (the call screen's and the kiosk's): "site unreachable" from
/// `site_unreachable` until `site_reachable`, after what the title says anyway, calls included.
@Suite struct SiteTitleTests {
    static let t0 = Date(timeIntervalSince1970: 1_765_000_000)

    @Test func theTitleSaysTheSiteIsUnreachableUntilItIsBack() {
        for kiosk in [false, true] {
            var model = ScreenModel()
            model.kioskMode = kiosk
            #expect(model.titleState(now: Self.t0) == "waiting for calls")
            model.apply(IntercomEvent(.siteUnreachable(error: "the site's store cannot be reached: connection refused"), time: Self.t0))
            #expect(model.titleState(now: Self.t0) == "waiting for calls — site unreachable", "kiosk \(kiosk)")
            let call = IntercomEvent.CallRef(id: CallID("c1"), panel: "lobby", from: "sip:lobby@x")
            model.apply(IntercomEvent(.callIncoming(call), time: Self.t0))
            #expect(model.titleState(now: Self.t0).hasSuffix(" — site unreachable"), "a call in: \(model.titleState(now: Self.t0))")
            model.apply(IntercomEvent(.siteReachable(replayed: 3), time: Self.t0))
            #expect(!model.titleState(now: Self.t0).contains("site"), "\(model.titleState(now: Self.t0))")
        }
    }
}
