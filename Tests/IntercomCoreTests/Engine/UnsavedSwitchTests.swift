import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomPhone
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// A switch the state folder will not take (issue 22): the caller gets the reason, the screens an
/// `error` event, and only "guest mode off" takes effect unsaved (DECISIONS.md).
@Suite(.removesTestFolders) struct UnsavedSwitchTests {
    /// An engine (not started: the switches need no phone) whose state folder is a symlink.
    static func intercom(guest: Date?) throws -> (Intercom, EventRecorder<IntercomEvent>, TestDirectory) {
        let directory = try TestDirectory(prefix: "intercom-unsaved")
        #expect(symlink(try directory.subdirectory("elsewhere").path, directory.path + "/intercom") == 0)
        let config = IntercomConfig(panels: [PanelConfig(name: "entrance", url: "http://127.0.0.1:9", guestUntil: guest)],
                                    daemon: DaemonSettings(socketPath: directory.path + "/c.sock"))
        let intercom = Intercom(config: config, phoneSettings: PhoneSettings(config: config, environment: [:]), logger: .silent,
                                switches: PanelSwitchStore(path: directory.path + "/intercom/switches.json"))
        return (intercom, EventRecorder(intercom.bus.subscribe()), directory)
    }

    static func refusal(_ body: () async throws -> JSONValue) async -> String? {
        do {
            _ = try await body()
            return nil
        } catch let IntercomError.switchNotSaved(message) {
            return message
        } catch {
            Issue.record("expected switchNotSaved, got \(error)")
            return nil
        }
    }

    @Test func callsAndGuestOnAreNotSwitchedAndEveryoneHearsWhy() async throws {
        let (intercom, events, directory) = try Self.intercom(guest: nil)
        let calls = await Self.refusal { try await intercom.setCalls(panel: "entrance", on: false) }
        #expect(calls?.hasPrefix("panel entrance: not switched to calls off (do not disturb): ") == true, "\(calls ?? "")")
        #expect(calls?.contains(directory.path + "/intercom is a symlink") == true && calls?.contains("XDG_RUNTIME_DIR") == false)
        let guest = await Self.refusal { try await intercom.setGuest(panel: "entrance", until: Date().addingTimeInterval(3600)) }
        #expect(guest?.hasPrefix("panel entrance: not switched to guest mode on: ") == true, "\(guest ?? "")")
        let panel = await intercom.config.panels[0]
        #expect(panel.calls && panel.guestUntil == nil)
        let shown = try await events.wait("error event") { e -> String? in if case .error(let m) = e.kind { m } else { nil } }
        #expect(shown == calls)
        #expect(IntercomError.switchNotSaved("x").exitCode == 1)
        #expect(!events.all.contains { if case .panelPolicy = $0.kind { true } else { false } })
    }

    /// Guest mode off closes the door to strangers now; the caller still hears it is not kept.
    @Test func guestOffTakesEffectUnsavedAndSaysSo() async throws {
        let (intercom, events, directory) = try Self.intercom(guest: Date().addingTimeInterval(86_400))
        // The folder (and its symlink) lives as long as the test: a removed one would simply be made again.
        defer { withExtendedLifetime(directory) {} }
        let message = await Self.refusal { try await intercom.setGuest(panel: "entrance", until: nil) }
        #expect(message?.hasPrefix("panel entrance: guest mode off now, but not saved, so a restart may undo it: ") == true,
                "\(message ?? "")")
        #expect(await intercom.config.panels[0].guestUntil == nil)
        _ = try await events.wait("panel_policy") { e -> Bool? in
            if case .panelPolicy(_, _, let until) = e.kind, until == nil { true } else { nil } }
    }
}
