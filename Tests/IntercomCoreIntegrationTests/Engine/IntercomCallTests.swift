import Foundation
@testable import IntercomBase
@testable import IntercomCore
@testable import IntercomSimulator
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomPhone
import IntercomBase

/// `intercom call`: the intercom calls a panel (a liblinphone phone here) to look and talk.
@Suite(.removesTestFolders) struct IntercomCallTests {
    typealias Setup = IntercomPanelTests.Setup

    static func setup(extraPanel: Bool = false) async throws -> Setup {
        let server = SimulatedPanelHTTPServer(options: SimulatedPanelOptions())
        _ = try server.start()
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel")
        var entrance = PanelConfig(name: "entrance", url: server.baseURL, password: "admin", match: [.uriPrefix("sip:panel@")])
        entrance.dial = PhoneTestSupport.uri(of: panel, user: "panel")
        let panels = extraPanel ? [entrance, PanelConfig(name: "gate", url: "http://127.0.0.1:9")] : [entrance]
        let (intercom, events) = try await PhoneTestSupport.intercom(panels: panels)
        return Setup(server: server, intercom: intercom, events: events, panel: panel, panelEvents: panelEvents)
    }

    @Test func callAPanelLookWhileItRingsTalkThenHangUp() async throws {
        let s = try await Self.setup()
        try await withCleanup({ await s.stop() }) {
            let reply = try await s.intercom.execute(.call(panel: nil))
            let id = try #require(reply["call"]?.stringValue.map(CallID.init))
            let outgoing = try await s.events.wait("call_outgoing") { e -> (IntercomEvent.CallRef, String)? in
                if case .callOutgoing(let c, let to) = e.kind { (c, to) } else { nil } }
            #expect(outgoing.0.id == id && outgoing.0.panel == "entrance")
            #expect(outgoing.1.hasPrefix("sip:panel@127.0.0.1:"))
            #expect(IntercomEvent(.callOutgoing(outgoing.0, to: outgoing.1)).json.encoded.contains("\"event\":\"call_outgoing\""))
            // While the panel rings, its snapshot is the picture, as for a call it places.
            _ = try await s.events.wait("peephole_frame") { e -> Bool? in
                if case .peepholeFrame(let c, _, _, _) = e.kind, c.id == id { true } else { nil } }
            // `answer` is for calls that ring here, never for one we placed.
            await #expect(throws: IntercomError.self) { try await s.intercom.execute(.answer(nil)) }
            let incoming = try await s.panelEvents.wait("panel rings") { $0.incomingCall }
            try await s.panel.answer(incoming.id, video: true)
            let by = try await s.events.wait("call_answered") { e -> IntercomEvent.AnsweredBy? in
                if case .callAnswered(let c, let by) = e.kind, c.id == id { by } else { nil } }
            #expect(by == .remote)
            try await s.intercom.execute(.hangup(nil))
            let reason = try await s.events.wait("call_ended") { e -> CallEndReason? in
                if case .callEnded(let c, let reason, _) = e.kind, c.id == id { reason } else { nil } }
            #expect(reason == .hangup)
            #expect(try await s.panelEvents.wait("panel sees the hang-up") { $0.ended(incoming.id) } == .remoteHangup)
        }
    }

    @Test func aPanelThatRefusesEndsTheCallAsDeclined() async throws {
        let s = try await Self.setup()
        try await withCleanup({ await s.stop() }) {
            try await s.intercom.execute(.call(panel: "entrance"))
            let incoming = try await s.panelEvents.wait("panel rings") { $0.incomingCall }
            try await s.panel.decline(incoming.id)
            let reason = try await s.events.wait("call_ended") { e -> CallEndReason? in
                if case .callEnded(_, let reason, _) = e.kind { reason } else { nil } }
            #expect(reason == .declined)
        }
    }

    @Test func whichPanelMustBeSaidWhenThereAreSeveral() async throws {
        let s = try await Self.setup(extraPanel: true)
        try await withCleanup({ await s.stop() }) {
            await #expect(throws: IntercomError.self) { try await s.intercom.execute(.call(panel: nil)) }
            await #expect(throws: IntercomError.self) { try await s.intercom.execute(.call(panel: "nosuch")) }
        }
    }

    @Test func dialURIIsDerivedFromMatchOrURL() {
        #expect(PanelConfig(name: "a", url: "http://192.168.1.50", match: [.uriPrefix("sip:100001@192.168.1.50")]).dialURI
                == "sip:100001@192.168.1.50")
        #expect(PanelConfig(name: "a", url: "http://192.168.1.50", match: [.uriPrefix("sip:100001@")]).dialURI
                == "sip:192.168.1.50")
        #expect(PanelConfig(name: "a", url: "http://door.local", match: [.ip("10.0.0.7")]).dialURI == "sip:10.0.0.7")
        #expect(PanelConfig(name: "a", url: "https://[fd00::5]:8443").dialURI == "sip:[fd00::5]")
        var explicit = PanelConfig(name: "a", url: "http://192.168.1.50")
        explicit.dial = "sip:panel@10.1.1.1:5062"
        #expect(explicit.dialURI == "sip:panel@10.1.1.1:5062")
    }

    @Test func callTravelsOverTheControlSocketProtocol() {
        let request = ControlRequest(id: .integer(3), action: .command(.call(panel: "gate")))
        #expect(request.json.encoded == #"{"command":"call","id":3,"panel":"gate"}"#)
        guard case .success(let parsed) = ControlRequest.parse(request.json.encoded) else {
            Issue.record("the request did not parse back")
            return
        }
        #expect(parsed.action == .command(.call(panel: "gate")))
    }
}
