import Foundation
import IntercomEngine
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomPhone

/// The intercom's per-panel policies against a real calling core over loopback.
@Suite struct IntercomPolicyTests {
    static func intercom(_ panels: [PanelConfig], unknown: UnknownCallerPolicy = .reject)
        async throws -> (Intercom, EventRecorder<IntercomEvent>) {
        try await PhoneTestSupport.intercom(panels: panels, unknownCallers: unknown)
    }

    static func uri(_ intercom: Intercom) async -> String {
        let port = await intercom.listening.first?.port ?? 0
        return "sip:door@127.0.0.1:\(port)"
    }

    @Test func autoAnswerOnAnswersAndReportsAuto() async throws {
        let (intercom, events) = try await Self.intercom([
            PanelConfig(name: "entrance", url: "http://127.0.0.1:1", match: [.uriPrefix("sip:panel@")], autoAnswer: .on)])
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel")
        try await withCleanup({ await panel.stop(); await intercom.stop() }) {
            let outgoing = try await panel.call(await Self.uri(intercom), video: false)
            let incoming = try await events.wait("call_incoming") { e -> IntercomEvent.CallRef? in
                if case .callIncoming(let c) = e.kind { c } else { nil } }
            #expect(incoming.panel == "entrance")
            let by = try await events.wait("call_answered") { e -> IntercomEvent.AnsweredBy? in
                if case .callAnswered(_, let by) = e.kind { by } else { nil } }
            #expect(by == .auto)
            _ = try await panelEvents.wait("panel established") { $0.established(outgoing) }
            try await panel.hangup(outgoing)
            let reason = try await events.wait("call_ended") { e -> CallEndReason? in
                if case .callEnded(_, let r, _) = e.kind { r } else { nil } }
            #expect(reason == .remoteHangup)
            #expect(events.all.map(\.name) == ["started", "call_incoming", "call_answered", "call_ended"])
        }
    }

    @Test(arguments: [false, true])
    func answeringOneCallKeepsOrDeclinesTheOthers(declineOthers: Bool) async throws {
        let (intercom, events) = try await PhoneTestSupport.intercom(
            panels: [PanelConfig(name: "entrance", url: "http://127.0.0.1:1", match: [.uriPrefix("sip:panel@")]),
                     PanelConfig(name: "gate", url: "http://127.0.0.1:1", match: [.uriPrefix("sip:gate@")])],
            declineOthers: declineOthers)
        let (entrance, _) = try await PhoneTestSupport.phone("panel")
        let (gate, gateEvents) = try await PhoneTestSupport.phone("gate")
        try await withCleanup({ await entrance.stop(); await gate.stop(); await intercom.stop() }) {
            _ = try await entrance.call(await Self.uri(intercom), video: false)
            let first = try await events.wait("entrance rings") { e -> CallID? in
                if case .callIncoming(let c) = e.kind, c.panel == "entrance" { c.id } else { nil } }
            let gateCall = try await gate.call(await Self.uri(intercom), video: false)
            _ = try await events.wait("gate rings") { e -> Bool? in
                if case .callIncoming(let c) = e.kind, c.panel == "gate" { true } else { nil } }
            try await intercom.execute(.answer(first))
            _ = try await events.wait("entrance answered") { e -> Bool? in
                if case .callAnswered(let c, _) = e.kind, c.id == first { true } else { nil } }
            if declineOthers {
                #expect(try await gateEvents.wait("the gate is refused") { $0.ended(gateCall) } == .declined)
            } else {
                try await Task.sleep(for: .milliseconds(300))
                guard case .array(let calls) = await intercom.status["calls"] else {
                    Issue.record("status has no calls array")
                    return
                }
                #expect(calls.count == 2, "the gate keeps ringing: \(calls)")
            }
        }
    }

    @Test func unknownCallerIsRejectedWithoutEvents() async throws {
        let (intercom, events) = try await Self.intercom([
            PanelConfig(name: "entrance", url: "http://127.0.0.1:1", match: [.uriPrefix("sip:100001@")])])
        let (scanner, scannerEvents) = try await PhoneTestSupport.phone("scanner")
        try await withCleanup({ await scanner.stop(); await intercom.stop() }) {
            let outgoing = try await scanner.call(await Self.uri(intercom), video: false)
            #expect(try await scannerEvents.wait("scanner refused") { $0.ended(outgoing) } == .declined)
            #expect(events.all.map(\.name) == ["started"])
        }
    }

    @Test func unknownCallerAcceptedWhenConfigured() async throws {
        let (intercom, events) = try await Self.intercom([], unknown: .accept)
        let (caller, _) = try await PhoneTestSupport.phone("caller")
        try await withCleanup({ await caller.stop(); await intercom.stop() }) {
            _ = try await caller.call(await Self.uri(intercom), video: false)
            let incoming = try await events.wait("call_incoming") { e -> IntercomEvent.CallRef? in
                if case .callIncoming(let c) = e.kind { c } else { nil } }
            #expect(incoming.panel == nil)
            #expect(IntercomEvent(.callIncoming(incoming)).json.encoded.contains("\"panel\":null"))
            try await intercom.execute(.answer(nil))
            _ = try await events.wait("call_answered") { e -> Bool? in
                if case .callAnswered(_, .user) = e.kind { true } else { nil } }
            try await intercom.execute(.hangup(nil))
            let reason = try await events.wait("call_ended") { e -> CallEndReason? in
                if case .callEnded(_, let r, _) = e.kind { r } else { nil } }
            #expect(reason == .hangup)
        }
    }

    @Test func doNotDisturbDeclines() async throws {
        let (intercom, events) = try await Self.intercom([
            PanelConfig(name: "gate", url: "http://127.0.0.1:1", match: [.ip("127.0.0.1")], calls: false)])
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel")
        try await withCleanup({ await panel.stop(); await intercom.stop() }) {
            let outgoing = try await panel.call(await Self.uri(intercom), video: false)
            #expect(try await panelEvents.wait("panel refused") { $0.ended(outgoing) } == .declined)
            let reason = try await events.wait("call_ended") { e -> CallEndReason? in
                if case .callEnded(let c, let r, _) = e.kind, c.panel == "gate" { r } else { nil } }
            #expect(reason == .declined)
        }
    }

    @Test func delayedAutoAnswerWaits() async throws {
        let (intercom, events) = try await Self.intercom([
            PanelConfig(name: "entrance", url: "http://127.0.0.1:1", match: [.uriPrefix("sip:panel@")],
                        autoAnswer: .after(seconds: 0.6))])
        let (panel, _) = try await PhoneTestSupport.phone("panel")
        try await withCleanup({ await panel.stop(); await intercom.stop() }) {
            let start = Date()
            _ = try await panel.call(await Self.uri(intercom), video: false)
            _ = try await events.wait("call_answered") { e -> Bool? in
                if case .callAnswered(_, .auto) = e.kind { true } else { nil } }
            #expect(Date().timeIntervalSince(start) >= 0.6)
        }
    }

    @Test func commandsWithoutCallsSayWhichCallIsMissing() async throws {
        let (intercom, _) = try await Self.intercom([])
        try await withCleanup({ await intercom.stop() }) {
            await #expect(throws: IntercomError.noCall("ringing")) { try await intercom.execute(.answer(nil)) }
            await #expect(throws: IntercomError.phone(.noSuchCall(CallID("c99")))) { try await intercom.execute(.hangup(CallID("c99"))) }
        }
    }
}
