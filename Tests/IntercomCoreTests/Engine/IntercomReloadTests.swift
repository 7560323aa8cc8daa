import Foundation
import IntercomCore
import Testing

/// SIGHUP's core half: new panel policies apply to the running core, calls in progress go on.
@Suite struct IntercomReloadTests {
    @Test func policiesChangeWithoutDroppingTheRingingCall() async throws {
        let s = try await IntercomPanelTests.setup()
        try await withCleanup({ await s.stop() }) {
            let (_, incoming) = try await s.ring()
            var newConfig = await s.intercom.config
            newConfig.panels[0].calls = false
            newConfig.panels[0].guestUntil = Date().addingTimeInterval(600)
            newConfig.panels[0].url = "http://127.0.0.1:1"
            newConfig.panels.append(PanelConfig(name: "yard", url: "http://127.0.0.1:2", user: "admin", password: "x"))
            let notApplied = await s.intercom.updatePanels(newConfig)
            #expect(notApplied.contains { $0.contains("yard") && $0.contains("restart") }, "\(notApplied)")
            #expect(notApplied.contains { $0.contains("entrance") && $0.contains("url") }, "\(notApplied)")
            let panel = try #require(await s.intercom.config.panel(named: "entrance"))
            #expect(!panel.calls && panel.guestUntil != nil)
            // The HTTP client keeps the old URL: a restart changes that.
            #expect(panel.url != "http://127.0.0.1:1")
            #expect(await s.intercom.config.panel(named: "yard") == nil)
            // The ringing call is still there and can be answered.
            try await s.intercom.execute(.answer(incoming.id))
            _ = try await s.events.wait("call_answered") { e -> Bool? in if case .callAnswered = e.kind { true } else { nil } }
            #expect(!s.events.all.contains { if case .callEnded = $0.kind { true } else { false } })
        }
    }
}
