import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import IntercomPhoneTestSupport
import Testing

/// The per-call policies on a fake phone and a manual clock: who a call is from, do-not-disturb,
/// auto-answer, a panel calling again, several calls at once. Milliseconds each, nothing sleeps.
@Suite(.removesTestFolders) struct CallPolicyTests {
    /// A panel at 10.0.0.5 whose calls come from SIP user 100001.
    static func entrance(_ change: (inout PanelConfig) -> Void = { _ in }) -> PanelConfig {
        var panel = PanelConfig(name: "entrance", url: "http://10.0.0.5", match: [.uriPrefix("sip:100001@")])
        change(&panel)
        return panel
    }

    static let panelURI = "sip:100001@10.0.0.5"
    static let panelAddress = "10.0.0.5"

    @Test func autoAnswerOnAnswersAndReportsAuto() async throws {
        try await EngineRig.run(panels: [Self.entrance { $0.autoAnswer = .on }]) { rig throws in
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            #expect(try await rig.incoming(id).panel == "entrance")
            #expect(try await rig.answered(id) == .auto)
            rig.phone.end(id)
            #expect(try await rig.ended(id) == .remoteHangup)
            // (Beside them, the peephole's pictures.)
            #expect(rig.events.all.map(\.name).filter { $0 != "peephole_frame" } == ["started", "call_incoming", "call_answered", "call_ended"])
        }
    }

    @Test func delayedAutoAnswerWaitsExactlyItsDelay() async throws {
        try await EngineRig.run(panels: [Self.entrance { $0.autoAnswer = .after(seconds: 2) }]) { rig throws in
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            try await rig.clock.waitForSleeper(endingIn: .seconds(2))
            rig.clock.advance(by: .milliseconds(1999))
            #expect(!rig.phone.requests.all.contains(.answer(id, recordTo: nil)), "answered before its delay")
            rig.clock.advance(by: .milliseconds(1))
            #expect(try await rig.answered(id) == .auto)
        }
    }

    @Test func aCallThatEndsBeforeTheDelayIsNeverAnswered() async throws {
        try await EngineRig.run(panels: [Self.entrance { $0.autoAnswer = .after(seconds: 2) }]) { rig throws in
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            try await rig.clock.waitForSleeper(endingIn: .seconds(2))
            rig.phone.end(id)
            #expect(try await rig.ended(id) == .remoteHangup)
            rig.clock.advance(by: .seconds(3))
            // The next call proves the engine went on past the cancelled delay.
            let next = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            try await rig.clock.waitForSleeper(endingIn: .seconds(2))
            rig.clock.advance(by: .seconds(2))
            #expect(try await rig.answered(next) == .auto)
            #expect(rig.phone.requests.all.filter { if case .answer = $0 { true } else { false } } == [.answer(next, recordTo: nil)])
        }
    }

    @Test(arguments: [false, true])
    func answeringOneCallKeepsOrDeclinesTheOthers(declineOthers: Bool) async throws {
        let gate = PanelConfig(name: "gate", url: "http://10.0.0.6", match: [.uriPrefix("sip:100002@")])
        try await EngineRig.run(panels: [Self.entrance(), gate], sip: SIPSettings(declineOthersOnAnswer: declineOthers)) { rig throws in
            let first = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.incoming(first)
            let second = rig.phone.ring(from: "sip:100002@10.0.0.6", source: "10.0.0.6")
            _ = try await rig.incoming(second)
            try await rig.intercom.execute(.answer(first))
            #expect(try await rig.answered(first) == .user)
            if declineOthers {
                #expect(try await rig.ended(second) == .declined)
                #expect(rig.phone.requests.all.contains(.decline(second, .declined)))
            } else {
                guard case .array(let calls) = await rig.intercom.status["calls"] else {
                    Issue.record("status has no calls array")
                    return
                }
                #expect(calls.count == 2, "the gate keeps ringing: \(calls)")
                #expect(!rig.phone.requests.all.contains { if case .decline = $0 { true } else { false } })
            }
        }
    }

    @Test func doNotDisturbDeclines() async throws {
        try await EngineRig.run(panels: [Self.entrance { $0.calls = false }]) { rig throws in
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            #expect(try await rig.ended(id) == .declined)
            #expect(rig.phone.requests.all == [.decline(id, .doNotDisturb)])
            #expect(rig.panel("entrance").snapshots.count == 0, "a declined call has no peephole")
        }
    }

    /// Calls off for one panel leave the others ringing; switched at run time, the next call obeys.
    @Test func callsOffArePerPanelAndSwitchAtRunTime() async throws {
        let gate = PanelConfig(name: "gate", url: "http://10.0.0.6", match: [.uriPrefix("sip:100002@")])
        try await EngineRig.run(panels: [Self.entrance(), gate]) { rig throws in
            try await rig.intercom.execute(.setCalls(panel: "entrance", on: false))
            let refused = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            #expect(try await rig.ended(refused) == .declined)
            let atGate = rig.phone.ring(from: "sip:100002@10.0.0.6", source: "10.0.0.6")
            #expect(try await rig.incoming(atGate).panel == "gate")
            try await rig.intercom.execute(.setCalls(panel: "entrance", on: true))
            let rings = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.incoming(rings)
            #expect(rig.phone.requests.all == [.decline(refused, .doNotDisturb)])
            let policies = rig.events.all.compactMap { e -> Bool? in if case .panelPolicy("entrance", let on, _) = e.kind { on } else { nil } }
            #expect(policies == [false, true])
        }
    }

    /// A panel makes one call at a time: its new call ends the one we still hold from it (it lost
    /// our BYE or rebooted). Another SIP user behind the same `match` is another device.
    @Test func aPanelCallingAgainReplacesItsCall() async throws {
        try await EngineRig.run(panels: [Self.entrance { $0.match = [.ip("10.0.0.5")] }]) { rig throws in
            let first = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.incoming(first)
            let second = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.incoming(second)
            #expect(rig.phone.requests.all == [.replace(first)])
            #expect(try await rig.ended(first) == .missed)
            let other = rig.phone.ring(from: "sip:100009@10.0.0.5", source: Self.panelAddress)
            _ = try await rig.incoming(other)
            #expect(rig.phone.requests.all == [.replace(first)], "another SIP user's call replaced the panel's")
            guard case .array(let calls) = await rig.intercom.status["calls"] else { Issue.record("no calls"); return }
            #expect(Set(calls.compactMap { $0["call"]?.stringValue }) == [second.rawValue, other.rawValue])
        }
    }

    /// An answered call the panel calls again about ends as the panel's hang-up, once the new
    /// call is answered and confirmed (`CallReplacementTests`: not before).
    @Test func aReplacedAnsweredCallEndsAsTheCallersHangUp() async throws {
        try await EngineRig.run(panels: [Self.entrance()]) { rig throws in
            let first = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.incoming(first)
            try await rig.intercom.execute(.answer(first))
            _ = try await rig.answered(first)
            let second = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.incoming(second)
            try await rig.intercom.execute(.answer(second))
            #expect(try await rig.ended(first) == .remoteHangup)
        }
    }

    /// Another desk took the call (a forking registrar): the event says so, not "missed".
    @Test func answeredElsewhereIsReportedAsSuch() async throws {
        try await EngineRig.run(sip: SIPSettings(unknownCallers: .accept)) { rig throws in
            let id = rig.phone.ring(from: "sip:panel@192.0.2.7", source: "192.0.2.1")
            _ = try await rig.incoming(id)
            rig.phone.end(id, reason: .answeredElsewhere)
            #expect(try await rig.ended(id) == .answeredElsewhere)
            let event = try #require(rig.events.all.first { $0.eventName == .callEnded })
            #expect(event.json["reason"]?.stringValue == "answered_elsewhere", "\(event.json.encoded)")
        }
    }

    @Test func commandsWithoutCallsSayWhichCallIsMissing() async throws {
        try await EngineRig.run { rig in
            await #expect(throws: IntercomError.noCall("ringing")) { try await rig.intercom.execute(.answer(nil)) }
            await #expect(throws: IntercomError.phone(.noSuchCall(CallID("c99")))) {
                try await rig.intercom.execute(.hangup(CallID("c99")))
            }
        }
    }

    /// A failed REGISTER is retried 1 s, 2 s, 4 s … later until one succeeds.
    @Test func aFailedRegistrationIsRetriedWithDoublingDelays() async throws {
        try await EngineRig.run { rig in
            rig.phone.report(.registration(account: "sip:desk@192.0.2.1", state: .failed, reason: "timeout"))
            for (attempt, delay) in [1, 2, 4].enumerated() {
                try await rig.clock.waitForSleeper(endingIn: .seconds(delay))
                rig.clock.advance(by: .seconds(delay))
                try await rig.phone.requests.wait("refresh #\(attempt + 1)") { requests in
                    requests.count == attempt + 1 ? true : nil
                }
            }
            rig.phone.report(.registration(account: "sip:desk@192.0.2.1", state: .registered, reason: nil))
            _ = try await rig.event("registered") { if case .registered = $0 { true } else { nil } }
            rig.clock.advance(by: .seconds(60))
            #expect(rig.phone.requests.all == Array(repeating: .refreshRegistration, count: 3))
        }
    }
}
