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

    /// A screen attached during an outage is told it by the attach (`RemoteLink.attachEvents`: the
    /// same events, from `ctl status`'s `site.reachable`): the title says it at once, and a re-attach
    /// that tells it again adds no second line; a re-attach whose store answers puts the title back.
    @Test func anAttachDuringAnOutageSaysItOnceAndAReattachWhoseStoreAnswersEndsIt() {
        var model = ScreenModel()
        let down = IntercomEvent(.siteUnreachable(error: "connection refused"), time: Self.t0)
        model.apply(down)
        #expect(model.titleState(now: Self.t0) == "waiting for calls — site unreachable")
        model.apply(down)
        #expect(model.recent.filter { $0.contains("site unreachable") }.count == 1, "\(model.recent)")
        // Re-attached to a desk whose store answers, or to a daemon without a site (the attach tells
        // both as reachable: AttachProtocolTests), or the outage ended: said once, title back.
        model.apply(IntercomEvent(.siteReachable(replayed: 0), time: Self.t0))
        model.apply(IntercomEvent(.siteReachable(replayed: 0), time: Self.t0))
        #expect(model.titleState(now: Self.t0) == "waiting for calls")
        #expect(model.recent.filter { $0.contains("site reachable") }.count == 1, "\(model.recent)")
        // A desk whose store always answered: its attach says reachable, and nothing is added.
        var fresh = ScreenModel()
        fresh.apply(IntercomEvent(.siteReachable(replayed: 0), time: Self.t0))
        #expect(fresh.recent.isEmpty && fresh.titleState(now: Self.t0) == "waiting for calls")
    }
}
