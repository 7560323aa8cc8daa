import Foundation
@testable import IntercomSimulator
import Testing
import IntercomPanel
import IntercomImaging
import IntercomHTTP
import IntercomTestSupport

@Suite struct PanelDoorTests {
    @Test func dksMainAndAltDoors() async throws {
        let f = try PanelFixture()
        defer { f.server.stop() }
        let events = PanelEventRecorder(f.server.doorEvents())
        defer { events.cancel() }

        try await f.panel.open(door: .main)
        #expect(f.server.requestCount("intercom_cgi?action=maindoor") == 1)
        try await f.panel.open(door: .alt)
        try await f.panel.open(door: .main)
        #expect(f.server.requestCount("intercom_cgi?action=maindoor") == 2)
        #expect(f.server.requestCount("intercom_cgi?action=altdoor") == 1)

        #expect(await events.wait { $0.count == 3 })
        #expect(events.all.map(\.door) == [.main, .alt, .main])
        #expect(events.all.allSatisfy { $0.method == "http" })
    }

    @Test func dksLightIsAPulseOfTwoCalls() async throws {
        let f = try PanelFixture(model: .dks)
        defer { f.server.stop() }
        try await f.panel.open(door: .light)
        #expect(f.server.requestCount("intercom_cgi?action=light") == 2)
        let error = await panelError { () async throws(PanelError) in try await f.panel.open(door: .output(5)) }
        guard case .badData = error else {
            Issue.record("expected badData, got \(String(describing: error))")
            return
        }
    }

    @Test func dsFamilyUsesAlarmOutRelays() async throws {
        let f = try PanelFixture(.init(deviceModel: "DS06M_rev2"))
        defer { f.server.stop() }
        let events = PanelEventRecorder(f.server.doorEvents())
        defer { events.cancel() }
        #expect(try await f.panel.detectFamily() == .ds)
        try await f.panel.open(door: .main)
        try await f.panel.open(door: .alt)
        try await f.panel.open(door: .output(2))
        #expect(f.server.requestCount("alarmout_cgi?action=set") == 3)
        #expect(f.server.requestCount("intercom_cgi") == 0)
        #expect(await events.wait { $0.count == 3 })
        #expect(events.all.map(\.door) == [.main, .alt, .output(2)])
    }

    @Test func unknownModelIsProbed() async throws {
        let dks = try PanelFixture(.init(deviceModel: "NEWPANEL9000"))
        defer { dks.server.stop() }
        #expect(try await dks.panel.detectFamily() == .dks)
        #expect(dks.server.requestCount("intercom_cgi?action=get") == 1)
    }
}
