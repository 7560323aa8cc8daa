import Foundation
import IntercomBase
import IntercomEngine
import IntercomPhone
import IntercomTestSupport
import Testing

/// Do-not-disturb and guest mode switched at run time: kept across a restart and a SIGHUP, until
/// the config's own value changes.
@Suite struct PanelSwitchStoreTests {
    static func panels(calls: Bool = true, guest: Date? = nil) -> [PanelConfig] {
        [PanelConfig(name: "Entrance", url: "http://127.0.0.1:9", calls: calls, guestUntil: guest)]
    }

    @Test func aSwitchHoldsUntilTheConfigChanges() throws {
        let directory = try TestDirectory(prefix: "intercom-switches")
        let store = PanelSwitchStore(path: directory.path + "/state/switches.json")
        store.setCalls(false, panel: "Entrance", configured: true, logger: .silent)
        #expect(store.apply(to: Self.panels(), logger: .silent)[0].calls == false)
        // The file is the user's business: 0600.
        var info = stat()
        #expect(stat(store.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        // The user edits the config to `calls = off` and later back to `on`: the file's latest value wins.
        #expect(store.apply(to: Self.panels(calls: false), logger: .silent)[0].calls == false)
        #expect(store.apply(to: Self.panels(calls: true), logger: .silent)[0].calls == true)
    }

    @Test func guestModeIsKeptWithItsEndTime() throws {
        let directory = try TestDirectory(prefix: "intercom-switches")
        let store = PanelSwitchStore(path: directory.path + "/switches.json")
        let until = Date(timeIntervalSince1970: 2_000_000_000.5)
        store.setGuest(until, panel: "entrance", configured: nil, logger: .silent)
        let applied = store.apply(to: Self.panels(), logger: .silent)[0]
        #expect(applied.guestUntil == until)
        store.setGuest(nil, panel: "entrance", configured: nil, logger: .silent)
        #expect(store.apply(to: Self.panels(), logger: .silent)[0].guestUntil == nil)
        // A config that sets its own guest_until since then wins.
        store.setGuest(until, panel: "entrance", configured: nil, logger: .silent)
        let own = Date(timeIntervalSince1970: 1_900_000_000)
        #expect(store.apply(to: Self.panels(guest: own), logger: .silent)[0].guestUntil == own)
    }

    @Test func aDamagedFileIsIgnored() throws {
        let directory = try TestDirectory(prefix: "intercom-switches")
        let url = try directory.write("not json", to: "switches.json")
        let store = PanelSwitchStore(path: url.path)
        #expect(store.apply(to: Self.panels(), logger: .silent)[0].calls == true)
        store.setCalls(false, panel: "entrance", configured: true, logger: .silent)
        #expect(store.apply(to: Self.panels(), logger: .silent)[0].calls == false)
    }

    /// SIGHUP with an unchanged file keeps the switch; the engine starts with it.
    @Test func theEngineStartsWithTheSwitchAndSIGHUPKeepsIt() async throws {
        let directory = try TestDirectory(prefix: "intercom-switches")
        let store = PanelSwitchStore(path: directory.path + "/switches.json")
        store.setCalls(false, panel: "entrance", configured: true, logger: .silent)
        let config = IntercomConfig(panels: Self.panels(), daemon: DaemonSettings(socketPath: directory.path + "/c.sock"))
        let intercom = Intercom(config: config, phoneSettings: PhoneSettings(config: config, environment: [:]),
                                logger: .silent, switches: store)
        #expect(await intercom.config.panels[0].calls == false)
        await intercom.updatePanels(config)
        #expect(await intercom.config.panels[0].calls == false)
        var edited = config
        edited.panels[0].autoAnswer = .on
        await intercom.updatePanels(edited)
        let panel = await intercom.config.panels[0]
        #expect(panel.calls == false && panel.autoAnswer == .on)
    }
}
