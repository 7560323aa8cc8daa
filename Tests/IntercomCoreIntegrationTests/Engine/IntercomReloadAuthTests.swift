import Foundation
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// SIGHUP and `[panel] auth`: the HTTP client is built once, so a changed auth waits for a restart
/// and says so, like a changed URL or password.
@Suite(.removesTestFolders) struct IntercomReloadAuthTests {
    @Test func aChangedAuthAsksForARestart() async throws {
        let s = try await IntercomPanelTests.setup()
        var newConfig = await s.intercom.config
        newConfig.panels[0].auth = .basic
        let notApplied = try await s.intercom.execute(.reload(newConfig)).notApplied
        #expect(notApplied.contains { $0.contains("entrance") && $0.contains("auth") && $0.contains("restart") }, "\(notApplied)")
        #expect(await s.intercom.config.panel(named: "entrance")?.auth == .digest)
        // Unchanged, nothing to say.
        #expect(try await s.intercom.execute(.reload(s.intercom.config)).notApplied.isEmpty)
        await s.stop()
    }
}
