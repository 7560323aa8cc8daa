import Foundation
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomPhone

/// SIGHUP's core half: new panel policies apply to the running core, calls in progress go on.
@Suite(.removesTestFolders) struct IntercomReloadTests {
    /// Every `[panel]` key is either applied by SIGHUP or reported as needing a restart: a key in
    /// neither list (as `dial` once was) is silently ignored until the next restart. A new
    /// `PanelConfig` property joins one of the two lists here.
    @Test func everyPanelKeyIsAppliedOrReportedAsNeedingARestart() async throws {
        let old = PanelConfig(name: "entrance", url: "http://127.0.0.1:1", password: "a")
        let reloadable: [(key: String, change: (inout PanelConfig) -> Void)] = [
            ("match", { $0.match = [.uriPrefix("sip:panel@")] }), ("source", { $0.source = ["127.0.0.2"] }),
            ("auto_open_interval", { $0.autoOpenInterval = 9 }), ("dtmf.main", { $0.dtmfMain = "5" }),
            ("dtmf.alt", { $0.dtmfAlt = "6" }),
            ("dtmf timing", { $0.dtmfTiming = DTMFTiming(durationMs: 100, gapMs: 200, repeat: 2) }),
            ("open", { $0.open = .dtmf }), ("peephole_fps", { $0.peepholeFPS = 1 }), ("calls", { $0.calls = false }),
            ("auto_answer", { $0.autoAnswer = .on }),
            ("guest_until", { $0.guestUntil = Date(timeIntervalSince1970: 2_000_000_000) }),
            ("dial", { $0.dial = "sip:panel@127.0.0.1:5099" }),
        ]
        let restart: [(key: String, change: (inout PanelConfig) -> Void)] = [
            ("url", { $0.url = "http://127.0.0.1:2" }), ("user", { $0.user = "other" }),
            ("password", { $0.password = "b" }), ("model", { $0.model = .ds }), ("auth", { $0.auth = .basic }),
            ("tls_insecure", { $0.tlsInsecure = true }), ("ca_file", { $0.caFile = "/tmp/ca.pem" }),
            ("stream", { $0.stream = "sub" }),
        ]
        let config = IntercomConfig(panels: [old], daemon: DaemonSettings(socketPath: "/tmp/unused.sock"))
        let intercom = Intercom(config: config, phoneSettings: PhoneSettings(config: config, environment: [:]), logger: .silent)
        var reloaded = config
        // Each reloadable key alone, then all at once.
        var all = old
        for (key, change) in reloadable {
            var changed = old
            change(&changed)
            change(&all)
            #expect(changed != old, "\(key): the test does not change it")
            reloaded.panels = [changed]
            #expect(try await intercom.execute(.reload(reloaded)).notApplied == [], "\(key)")
            #expect(await intercom.config.panels == [changed], "\(key) was not applied by SIGHUP")
        }
        reloaded.panels = [all]
        #expect(try await intercom.execute(.reload(reloaded)).notApplied == [])
        #expect(await intercom.config.panels == [all])
        for (key, change) in restart {
            var changed = all
            change(&changed)
            #expect(changed != all, "\(key): the test does not change it")
            reloaded.panels = [changed]
            let notApplied = try await intercom.execute(.reload(reloaded)).notApplied
            #expect(notApplied.count == 1 && notApplied[0].contains("restart"), "\(key): \(notApplied)")
            #expect(await intercom.config.panels == [all], "\(key) was applied without a restart")
        }
        await intercom.stop()
    }
}
