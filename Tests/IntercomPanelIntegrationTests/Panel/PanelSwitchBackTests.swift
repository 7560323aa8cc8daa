import Foundation
@testable import IntercomSimulator
import Testing
import IntercomPanel
import IntercomTestSupport

/// Outputs are switched back whatever happens to the `on` or to the caller, and door replies
/// other than `OK` are reported in the panel's words (docs/BEWARD.md "Doors and outputs").
@Suite struct PanelSwitchBackTests {
    /// The light's `on` hangs past the client's timeout: the caller hears the timeout, and the
    /// panel still gets `Enable=off`.
    @Test func lightOffIsSentWhenOnTimesOut() async throws {
        let f = try PanelFixture(model: .dks, timeout: .milliseconds(400))
        defer { f.server.stop() }
        f.server.setFaults(.init(stallLightOnMs: 3000))
        let error = await panelError { () async throws(PanelError) in try await f.panel.open(door: .light) }
        #expect(error == .timeout(panel: "test", after: .milliseconds(400)), "\(String(describing: error))")
        #expect(f.server.requestCount("light:on") == 1)
        #expect(f.server.requestCount("light:off") == 1)
    }

    /// The caller is cancelled while its `on` hangs: the `on` fails (cancelled) and the `off`,
    /// owned by the panel, still arrives.
    @Test func lightOffIsSentWhenTheCallerIsCancelled() async throws {
        let f = try PanelFixture(model: .dks)
        defer { f.server.stop() }
        f.server.setFaults(.init(stallLightOnMs: 3000))
        let task = Task { () -> PanelError? in
            await panelError { () async throws(PanelError) in try await f.panel.open(door: .light) }
        }
        try await TestPatience.poll("the light's on arrived") { f.server.requestCount("light:on") == 1 }
        task.cancel()
        let error = await task.value
        #expect(error == .cancelled, "\(String(describing: error))")
        await f.panel.settle()
        #expect(f.server.requestCount("light:off") == 1)
    }

    /// A one-relay DS refuses relay 2 in its own words; the error quotes them.
    @Test func aDoorReplyOtherThanOKIsQuoted() async throws {
        let f = try PanelFixture(.init(deviceModel: "DS06M_rev2", relays: 1))
        defer { f.server.stop() }
        try await f.panel.open(door: .main)
        let error = await panelError { () async throws(PanelError) in try await f.panel.open(door: .alt) }
        #expect(error == .doorReply(panel: "test", request: "alarmout_cgi action=set&Output=1&Status=1",
                                    said: "Error: Output 1 is not available"))
        #expect(error?.description.contains("answered \"Error: Output 1 is not available\" instead of OK") == true)
    }

    /// An account that may open doors but not read `systeminfo_cgi`: with `model = auto` the line
    /// names `model =` (not "wrong password"); with the model named, the door opens.
    @Test func refusedSystemInfoNamesTheModelKey() async throws {
        let auto = try PanelFixture(.init(restrictedAccount: true))
        defer { auto.server.stop() }
        let error = await panelError { () async throws(PanelError) in try await auto.panel.open(door: .main) }
        #expect(error == .modelUnreadable(panel: "test"))
        #expect(error?.description.contains("set model = dks|ds in [panel test]") == true)
        #expect(error?.exitCode == 77)

        let named = try PanelFixture(.init(restrictedAccount: true), model: .dks)
        defer { named.server.stop() }
        try await named.panel.open(door: .main)
        #expect(named.server.requestCount("intercom_cgi?action=maindoor") == 1)
    }
}
