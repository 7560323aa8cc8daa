import Foundation
import IntercomBase
import IntercomCore
import IntercomPhone
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// Do-not-disturb and guest mode switched at run time: kept across a restart and a SIGHUP, until
/// the config's own value changes.
@Suite(.removesTestFolders) struct PanelSwitchStoreTests {
    static func panels(calls: Bool = true, guest: Date? = nil) -> [PanelConfig] {
        [PanelConfig(name: "Entrance", url: "http://127.0.0.1:9", calls: calls, guestUntil: guest)]
    }

    @Test func aSwitchHoldsUntilTheConfigChanges() throws {
        let directory = try TestDirectory(prefix: "intercom-switches")
        let store = PanelSwitchStore(path: directory.path + "/state/switches.json")
        try store.setCalls(false, panel: "Entrance", configured: true, logger: .silent)
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
        try store.setGuest(until, panel: "entrance", configured: nil, logger: .silent)
        let applied = store.apply(to: Self.panels(), logger: .silent)[0]
        #expect(applied.guestUntil == until)
        try store.setGuest(nil, panel: "entrance", configured: nil, logger: .silent)
        #expect(store.apply(to: Self.panels(), logger: .silent)[0].guestUntil == nil)
        // A config that sets its own guest_until since then wins.
        try store.setGuest(until, panel: "entrance", configured: nil, logger: .silent)
        let own = Date(timeIntervalSince1970: 1_900_000_000)
        #expect(store.apply(to: Self.panels(guest: own), logger: .silent)[0].guestUntil == own)
    }

    static let future = Date(timeIntervalSince1970: 4_070_908_800)

    /// Issue 37: a damaged file (cut short, edited by hand) never brings back the config's
    /// guest_until: `check` (the daemon's start) names it, `apply` (SIGHUP) leaves guest mode off,
    /// and a switch is refused rather than written over it (which would drop the other panels').
    @Test(arguments: ["not json", "[]", #"{"entrance": 1}"#, #"{"entrance": {"calls": "off", "calls_config": true}}"#,
                      #"{"entrance": {"guest_until": "soon", "guest_until_config": null}}"#,
                      #"{"entrance": {"guest_until": null}}"#])
    func aDamagedFileLeavesGuestModeOffAndIsNotWrittenOver(text: String) throws {
        let directory = try TestDirectory(prefix: "intercom-switches")
        let url = try directory.write(text, to: "switches.json")
        #expect(chmod(url.path, 0o600) == 0)
        let store = PanelSwitchStore(path: url.path)
        do {
            try store.check()
            Issue.record("\(text) passed the check")
        } catch {
            guard case .damaged = error.reason else { Issue.record("\(error)"); return }
            #expect(error.description.hasPrefix("\(url.path) is damaged (") && error.description.hasSuffix("mend it or remove it"))
        }
        let applied = store.apply(to: Self.panels(guest: Self.future), logger: .silent)[0]
        #expect(applied.guestUntil == nil && applied.calls == true)
        #expect(throws: StateDirectoryError.self) { try store.setCalls(false, panel: "entrance", configured: true, logger: .silent) }
        #expect(throws: StateDirectoryError.self) { try store.setGuest(nil, panel: "entrance", configured: Self.future, logger: .silent) }
        #expect(directory.read("switches.json") == text)
    }

    /// A missing file is the first run: the config's switches, and `check` passes.
    @Test func aMissingFileIsTheConfigs() throws {
        let directory = try TestDirectory(prefix: "intercom-switches")
        let store = PanelSwitchStore(path: directory.path + "/switches.json")
        try store.check()
        #expect(store.apply(to: Self.panels(guest: Self.future), logger: .silent)[0].guestUntil == Self.future)
    }

    /// Another user's file, or ours left writable by others, may have been planted: guest mode off,
    /// and `check` says what is wrong and what to do.
    @Test func aFileOthersOwnOrMayWriteIsNotTrusted() throws {
        let directory = try TestDirectory(prefix: "intercom-switches")
        let store = PanelSwitchStore(path: directory.path + "/switches.json")
        try store.setGuest(nil, panel: "entrance", configured: Self.future, logger: .silent)
        #expect(chmod(store.path, 0o660) == 0)
        #expect(throws: StateFileError(store.path, .writableByOthers(mode: 0o660))) { try store.check() }
        #expect(store.apply(to: Self.panels(guest: Self.future), logger: .silent)[0].guestUntil == nil)
        #expect(chmod(store.path, 0o600) == 0)
        // Back to 0600 it is trusted again (another user's file: StateFileTests, judged for a uid not ours).
        try store.check()
        #expect(store.apply(to: Self.panels(guest: Self.future), logger: .silent)[0].guestUntil == nil, "the switch holds")
    }

    /// SIGHUP with an unchanged file keeps the switch; the engine starts with it.
    @Test func theEngineStartsWithTheSwitchAndSIGHUPKeepsIt() async throws {
        let directory = try TestDirectory(prefix: "intercom-switches")
        let store = PanelSwitchStore(path: directory.path + "/switches.json")
        try store.setCalls(false, panel: "entrance", configured: true, logger: .silent)
        let config = IntercomConfig(panels: Self.panels(), daemon: DaemonSettings(socketPath: directory.path + "/c.sock"))
        let intercom = Intercom(config: config, phoneSettings: PhoneSettings(config: config, environment: [:]),
                                logger: .silent, switches: store)
        #expect(await intercom.config.panels[0].calls == false)
        try await intercom.execute(.reload(config))
        #expect(await intercom.config.panels[0].calls == false)
        var edited = config
        edited.panels[0].autoAnswer = .on
        try await intercom.execute(.reload(edited))
        let panel = await intercom.config.panels[0]
        #expect(panel.calls == false && panel.autoAnswer == .on)
    }
    /// Issue 22: "guest off" set at run time holds over a config whose guest_until is still in the
    /// future, across a restart (a new store on the same file), until that guest_until is edited.
    @Test func guestOffBeatsAFutureGuestUntilUntilTheConfigChanges() throws {
        let directory = try TestDirectory(prefix: "intercom-switches")
        let path = directory.path + "/state/intercom/switches.json"
        let future = Date(timeIntervalSince1970: 4_070_908_800.25)
        try PanelSwitchStore(path: path).setGuest(nil, panel: "Entrance", configured: future, logger: .silent)
        let restarted = PanelSwitchStore(path: path)
        #expect(restarted.apply(to: Self.panels(guest: future), logger: .silent)[0].guestUntil == nil)
        #expect(restarted.apply(to: Self.panels(guest: future), logger: .silent)[0].guestUntil == nil, "applying keeps the switch")
        // The user writes a new guest_until: the file's latest word wins, and the switch is forgotten.
        let edited = future.addingTimeInterval(3600)
        #expect(restarted.apply(to: Self.panels(guest: edited), logger: .silent)[0].guestUntil == edited)
        #expect(restarted.apply(to: Self.panels(guest: future), logger: .silent)[0].guestUntil == future)
    }

    @Test func aSwitchThatCannotBeSavedThrowsAndWritesNothing() throws {
        let directory = try TestDirectory(prefix: "intercom-switches")
        let target = try directory.subdirectory("elsewhere").path
        let state = directory.path + "/intercom"
        #expect(symlink(target, state) == 0)
        let store = PanelSwitchStore(path: state + "/switches.json")
        #expect(throws: StateDirectoryError(state, .notADirectory)) {
            try store.setCalls(false, panel: "entrance", configured: true, logger: .silent)
        }
        #expect(throws: StateDirectoryError(state, .notADirectory)) {
            try store.setGuest(nil, panel: "entrance", configured: nil, logger: .silent)
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: target)) == [])
    }

    /// A switches.json we did not write (a link planted while the folder was open) could turn guest mode on.
    @Test func aSwitchFileNotOursIsNotRead() throws {
        let directory = try TestDirectory(prefix: "intercom-switches")
        let planted = try directory.write(#"{"entrance":{"guest_until":4070908800,"guest_until_config":null}}"#, to: "planted.json")
        #expect(symlink(planted.path, directory.path + "/switches.json") == 0)
        let store = PanelSwitchStore(path: directory.path + "/switches.json")
        #expect(store.apply(to: Self.panels(), logger: .silent)[0].guestUntil == nil)
        #expect(throws: StateFileError(store.path, .notAPlainFile)) { try store.check() }
        // Nor does it fall back to the config's guest mode.
        #expect(store.apply(to: Self.panels(guest: Self.future), logger: .silent)[0].guestUntil == nil)
    }
}
