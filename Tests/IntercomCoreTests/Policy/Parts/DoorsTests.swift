import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import Testing

/// The doors part without an engine: the limit on automatic openings on the manual clock, the
/// ways a door opens, the code's time on the wire, which panel a command means, and the reply.
@Suite struct DoorsTests {
    static func panel(_ change: (inout PanelConfig) -> Void = { _ in }) -> PanelConfig {
        var panel = PanelConfig(name: "entrance", url: "http://127.0.0.1:9")
        change(&panel)
        return panel
    }

    @Test func automaticOpeningsAreLimitedPerKeyByTheirInterval() throws {
        let clock = ManualClock()
        var doors = Doors()
        let refusal: (String) -> String = { "one per \($0)" }
        try doors.admitAutomatic("entrance", interval: 10, at: clock.date, refusal: refusal)
        try doors.admitAutomatic("yard", interval: 10, at: clock.date, refusal: refusal)
        clock.advance(by: .seconds(9.5))
        let error = #expect(throws: IntercomError.self) { try doors.admitAutomatic("entrance", interval: 10, at: clock.date, refusal: refusal) }
        #expect(error?.description == "one per 10 s")
        clock.advance(by: .seconds(0.5))
        try doors.admitAutomatic("entrance", interval: 10, at: clock.date, refusal: refusal)
        // No interval: no limit, and a refusal never moves the last opening's time.
        try doors.admitAutomatic("entrance", interval: 0, at: clock.date, refusal: refusal)
        #expect(doors.lastAutomaticOpen["entrance"] == clock.date)
        #expect(Doors.seconds(2.5) == "2.5 s")
    }

    @Test func aDoorOpensByHTTPOutsideAConversationAndPerTheModeInOne() {
        #expect(Doors.methods(Self.panel { $0.open = .both }, inConversation: false) == [.http])
        #expect(Doors.methods(Self.panel { $0.open = .http }, inConversation: true) == [.http])
        #expect(Doors.methods(Self.panel { $0.open = .dtmf }, inConversation: true) == [.dtmf])
        #expect(Doors.methods(Self.panel { $0.open = .both }, inConversation: true) == [.http, .dtmf])
    }

    @Test func theCodeTakesItsDigitsAndRoundsOnTheWire() {
        #expect(Doors.dtmfSeconds(Self.panel { $0.open = .http; $0.dtmfMain = "1234" }) == 0)
        let panel = Self.panel { $0.open = .dtmf; $0.dtmfMain = "12"; $0.dtmfTiming = DTMFTiming(durationMs: 160, gapMs: 300, repeat: 2) }
        // Two rounds of two digits of 160 + 40 ms, one gap of 300 ms between them, and half a second.
        #expect(abs(Doors.dtmfSeconds(panel) - (0.8 + 0.3 + 0.5)) < 1e-9)
        #expect(Doors.dtmfDigits(for: .alt, panel: Self.panel { $0.dtmfAlt = "2" }) == "2")
    }

    @Test func aCommandMeansTheNamedPanelOrTheOnlyOne() throws {
        var config = IntercomConfig(panels: [Self.panel()], daemon: DaemonSettings(socketPath: "/nonexistent/control.sock"))
        #expect(try Doors.resolvePanel(nil, in: config).name == "entrance")
        #expect(try Doors.resolvePanel("Entrance", in: config).name == "entrance")
        #expect(throws: IntercomError.unknownPanel("no panel 'gate' in the config; panels: entrance")) {
            try Doors.resolvePanel("gate", in: config)
        }
        config.panels.append(PanelConfig(name: "yard", url: "http://127.0.0.1:9"))
        #expect(throws: IntercomError.unknownPanel("several panels: name one of entrance, yard")) { try Doors.resolvePanel(nil, in: config) }
        config.panels = []
        #expect(throws: IntercomError.unknownPanel("no panel in the config: add a [panel NAME] section")) {
            try Doors.resolvePanel(nil, in: config)
        }
    }

    @Test func withBothWaysOneThroughIsEnough() throws {
        let refused = IntercomError.refused("no")
        let reply = try Doors.reply(panel: "entrance", door: .main, attempts: [(.http, refused), (.dtmf, nil)])
        guard case .array(let attempts)? = reply["attempts"] else { Issue.record("no attempts in \(reply)"); return }
        #expect(attempts.map { $0["ok"]?.boolValue } == [false, true])
        #expect(throws: IntercomError.refused("no")) { try Doors.reply(panel: "entrance", door: .main, attempts: [(.http, refused)]) }
        #expect(throws: IntercomError.refused("no")) {
            try Doors.reply(panel: "entrance", door: .main, attempts: [(.http, refused), (.dtmf, IntercomError.refused("late"))])
        }
    }

    @Test func aWayThePanelLacksFailsSayingWhatToSet() async throws {
        let phone = FakePhone()
        let dtmf = Doors.attempt(.dtmf, door: .light, panel: Self.panel(), call: CallID("1"), client: nil, phone: phone)
        await #expect(throws: IntercomError.unknownPanel("panel entrance has no DTMF code for door light: set dtmf.main / dtmf.alt")) { try await dtmf() }
        let http = Doors.attempt(.http, door: .main, panel: Self.panel(), call: nil, client: nil, phone: phone)
        await #expect(throws: IntercomError.unknownPanel("panel entrance has no usable url; fix [panel entrance] url")) { try await http() }
        let panel = FakePanel(name: "entrance")
        try await Doors.attempt(.http, door: .main, panel: Self.panel(), call: nil, client: panel, phone: phone)()
        #expect(panel.doorRequests.all == [.main])
    }

    @Test func anOpeningIsRoutedByWhatItNames() throws {
        let config = IntercomConfig(panels: [Self.panel()], daemon: DaemonSettings(socketPath: "/nonexistent/control.sock"))
        let none: (String?) -> CallSession? = { _ in nil }
        guard case .panelDoor("entrance", .alt) = try Doors.route("entrance:alt", by: .key, in: config, calls: [], currentCall: none) else {
            Issue.record("PANEL:DOOR is that panel's door"); return
        }
        guard case .panel(let panel, nil) = try Doors.route(nil, by: .hook, in: config, calls: [], currentCall: none) else {
            Issue.record("no name and no call: the only panel"); return
        }
        #expect(panel.name == "entrance")
        #expect(throws: IntercomError.unknownPanel("no panel 'home:1:0' in the config; panels: entrance")) {
            try Doors.route("home:1:0", by: .key, in: config, calls: [], currentCall: none)
        }
    }
}
