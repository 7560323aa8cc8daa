import Foundation
import IntercomCore
@testable import IntercomSimulator
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomPhone

/// Peephole, doors and guest mode: a real liblinphone caller and the simulated panel's HTTP API.
@Suite(.removesTestFolders) struct IntercomPanelTests {
    struct Setup {
        var server: SimulatedPanelHTTPServer
        var intercom: Intercom
        var events: EventRecorder<IntercomEvent>
        var panel: Phone
        var panelEvents: EventRecorder<PhoneEvent>

        func stop() async {
            await panel.stop()
            await intercom.stop()
            server.stop()
        }

        func ring() async throws -> (outgoing: CallID, incoming: IntercomEvent.CallRef) {
            let port = await intercom.listening.first?.port ?? 0
            let outgoing = try await panel.call("sip:door@127.0.0.1:\(port)", video: false)
            let incoming = try await events.wait("call_incoming") { e -> IntercomEvent.CallRef? in
                if case .callIncoming(let c) = e.kind { c } else { nil } }
            return (outgoing, incoming)
        }

        func door(_ method: String) async throws -> (ok: Bool, door: String) {
            try await events.wait("door_opened by \(method)") { e -> (Bool, String)? in
                if case .doorOpened(_, _, let door, method, _, let ok, _) = e.kind { (ok, door) } else { nil } }
        }
    }

    static func setup(open: DoorOpenMethod = .http, autoAnswer: AutoAnswer = .off, guestUntil: Date? = nil,
                      password: String = "admin", fps: Double = 3, autoOpenInterval: Double = 5) async throws -> Setup {
        let server = SimulatedPanelHTTPServer(options: SimulatedPanelOptions())
        _ = try server.start()
        let panelConfig = PanelConfig(name: "entrance", url: server.baseURL, user: "admin", password: password,
                                      match: [.uriPrefix("sip:panel@")], open: open, peepholeFPS: fps,
                                      autoAnswer: autoAnswer, guestUntil: guestUntil, autoOpenInterval: autoOpenInterval)
        let (intercom, events) = try await PhoneTestSupport.intercom(panels: [panelConfig])
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel")
        return Setup(server: server, intercom: intercom, events: events, panel: panel, panelEvents: panelEvents)
    }

    /// The simulated panel's JPEG snapshot reaches the hub and the events for a real call; its
    /// pace and its end are counted on fakes (Policy/PeepholePolicyTests).
    @Test func peepholeShowsThePanelsSnapshotsWhileRinging() async throws {
        let s = try await Self.setup(fps: 3)
        try await withCleanup({ await s.stop() }) {
            let (outgoing, incoming) = try await s.ring()
            let firstFrame = try await s.events.wait("peephole_frame") { e -> (Int, Int)? in
                if case .peepholeFrame(let c, let w, let h, _) = e.kind, c.id == incoming.id { (w, h) } else { nil } }
            #expect(firstFrame == (640, 480))
            #expect(s.intercom.peephole.latest(panel: "entrance")?.call == incoming.id)
            #expect(s.server.requestCount("images_cgi") >= 1)
            try await s.panel.hangup(outgoing)
            _ = try await s.events.wait("call_ended") { e -> Bool? in if case .callEnded = e.kind { true } else { nil } }
        }
    }

    @Test func openByDTMFInACall() async throws {
        let s = try await Self.setup(open: .dtmf, autoAnswer: .on)
        try await withCleanup({ await s.stop() }) {
            let (outgoing, _) = try await s.ring()
            _ = try await s.events.wait("call_answered") { e -> Bool? in if case .callAnswered = e.kind { true } else { nil } }
            try await s.intercom.execute(.open(panel: nil, door: .main))
            #expect(try await s.door("dtmf").ok)
            _ = try await s.panelEvents.wait("digit 1 at the panel") { $0.dtmf(outgoing) == "1" ? true : nil }
            #expect(s.server.requestCount("intercom_cgi?action=maindoor") == 0)
        }
    }

    @Test func wrongPasswordIsReportedAndThrows() async throws {
        let s = try await Self.setup(password: "wrong")
        try await withCleanup({ await s.stop() }) {
            await #expect(throws: IntercomError.self) { try await s.intercom.execute(.open(panel: "entrance", door: .main)) }
            #expect(try await s.door("http").ok == false)
            let line = try #require(s.events.all.last).json.encoded
            #expect(line.contains("\"ok\":false") && !line.contains("wrong"))
        }
    }

    @Test func guestModeAnswersOpensAndHangsUp() async throws {
        let s = try await Self.setup(open: .http, guestUntil: Date().addingTimeInterval(3600))
        try await withCleanup({ await s.stop() }) {
            let (outgoing, _) = try await s.ring()
            let by = try await s.events.wait("call_answered") { e -> IntercomEvent.AnsweredBy? in
                if case .callAnswered(_, let by) = e.kind { by } else { nil } }
            #expect(by == .guestMode)
            #expect(try await s.door("http").ok)
            let reason = try await s.events.wait("call_ended") { e -> CallEndReason? in
                if case .callEnded(_, let r, _) = e.kind { r } else { nil } }
            #expect(reason == .hangup)
            #expect(try await s.panelEvents.wait("panel sees the hang-up") { $0.ended(outgoing) } == .remoteHangup)
            #expect(s.server.requestCount("intercom_cgi?action=maindoor") == 1)
        }
    }

    @Test func alarmStreamBecomesPanelEvents() async throws {
        let s = try await Self.setup()
        try await withCleanup({ await s.stop() }) {
            await s.intercom.watchPanels()
            await TestPatience.eventually(within: .seconds(5)) { s.server.alarmStreamCount != 0 }
            s.server.ding(releaseAfter: .milliseconds(100))
            _ = try await s.events.wait("ding off") { e -> Bool? in
                if case .panelEvent("entrance", "ding", "off", _) = e.kind { true } else { nil } }
            let states = s.events.all.compactMap { e -> String? in
                if case .panelEvent("entrance", "ding", let state, _) = e.kind { state } else { nil } }
            #expect(states == ["on", "off"])
        }
    }
}
