import Foundation
import Testing
@testable import IntercomBase

/// SIGHUP's decision, from the config table, outside a running daemon.
@Suite struct ConfigReloadPlanTests {
    static func config(_ text: String) throws -> IntercomConfig {
        try parseConfig(text).config
    }

    static let base = """
        [sip]
        listen = udp:127.0.0.1:5060
        [panel entrance]
        url = http://192.0.2.1
        [journal]
        keep_days = 30
        [hooks]
        on_call_incoming = /bin/true
        """

    @Test func unchangedConfigSaysNothing() throws {
        let running = try Self.config(Self.base)
        let plan = ConfigReloadPlan(running: running, reloaded: running)
        #expect(plan.notApplied.isEmpty)
        #expect(plan.config == running)
    }

    @Test func liveKeysApplyAndRestartKeysAreNamed() throws {
        let running = try Self.config(Self.base)
        let reloaded = try Self.config("""
            [sip]
            listen = udp:127.0.0.1:5070
            ring_timeout = 20
            [panel entrance]
            url = http://192.0.2.1
            dial = sip:1@192.0.2.1
            [journal]
            keep_days = 7
            path = /var/tmp/journal
            [hooks]
            on_door_opened = /bin/true
            """)
        let plan = ConfigReloadPlan(running: running, reloaded: reloaded)
        #expect(plan.notApplied.contains("[sip] listen, ring_timeout changed: restart the daemon to apply"), "\(plan.notApplied)")
        #expect(plan.notApplied.contains("[journal] path changed: restart the daemon to apply"), "\(plan.notApplied)")
        #expect(plan.notApplied.count == 2, "\(plan.notApplied)")
        #expect(plan.config.sip == running.sip)
        #expect(plan.config.panels.first?.dial == "sip:1@192.0.2.1")
        #expect(plan.config.journal == JournalSettings(keepDays: 7, maxMB: 500, path: nil))
        #expect(plan.config.hooks == ["door_opened": "/bin/true"])
    }

    @Test func panelsAddedRemovedOrReachedDifferentlyWaitForARestart() throws {
        let running = try Self.config(Self.base)
        let reloaded = try Self.config("""
            [panel entrance]
            url = http://192.0.2.2
            password = other
            calls = off
            [panel yard]
            url = http://192.0.2.3
            """)
        let plan = ConfigReloadPlan(running: running, reloaded: reloaded)
        #expect(plan.notApplied.contains("panel entrance: url, password changed: restart the daemon to apply"), "\(plan.notApplied)")
        #expect(plan.notApplied.contains("panel yard is new: restart the daemon to add it"), "\(plan.notApplied)")
        #expect(plan.config.panels.map(\.name) == ["entrance"])
        #expect(plan.config.panels.first?.calls == false)
        #expect(plan.config.panels.first?.url == "http://192.0.2.1")
    }

    /// The daemon lists and opens the operators' doors: a new operator or another `api` is named
    /// for a restart, `open` applies at once, `phone` (read only by `login`) is left to the commands.
    @Test func operatorsNeedARestartButOpenIsLive() throws {
        let running = try Self.config(Self.base + "\n[operator home]\napi = https://api.example/mobile\nphone = 79123456781")
        let reloaded = try Self.config(Self.base + """

            [operator home]
            api = https://other.example/mobile
            phone = 79123456782
            open = api
            [operator dacha]
            api = https://api.example/mobile
            """)
        let plan = ConfigReloadPlan(running: running, reloaded: reloaded)
        #expect(plan.notApplied == ["operator home: api changed: restart the daemon to apply",
                                    "operator dacha is new: restart the daemon to add it"], "\(plan.notApplied)")
        #expect(plan.config.operators.map(\.name) == ["home"])
        #expect(plan.config.operators.first?.open == .api)
        #expect(plan.config.operators.first?.api == "https://api.example/mobile")
        #expect(plan.config.operators.first?.phone == "79123456781")
    }
}
