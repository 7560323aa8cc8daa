import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomTestSupport
import Testing

/// A forked call at two engines on one fake site store (issue 40): the desk that answers claims it,
/// the other ends it naming that desk and its operator; a desk off duty refuses its fork with 480;
/// a lone desk ends an answered-elsewhere call unnamed, as before.
@Suite struct SiteCallEngineTests {
    static let callID = "fork-1@10.0.0.5"

    /// `call_ended` of `id` as the rig saw it (the whole event: its `takenAt` is the point).
    static func endEvent(_ rig: EngineRig, _ id: CallID) async throws -> IntercomEvent {
        try await rig.events.wait("call_ended of \(id)") { $0.eventName == .callEnded && $0.call?.id == id ? $0 : nil }
    }

    /// The forked call rings at both desks (each has shown it).
    static func ringBoth(_ a: EngineRig, _ b: EngineRig) async throws -> (CallID, CallID) {
        let atA = a.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress, sipCallID: callID)
        let atB = b.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress, sipCallID: callID)
        _ = try await a.incoming(atA)
        _ = try await b.incoming(atB)
        return (atA, atB)
    }

    @Test func answeredAtBEndsAtANamingBAndItsOperator() async throws {
        try await SiteSwitchEngineTests.twoDesks { a, b, store in
            let (atA, atB) = try await Self.ringBoth(a, b)
            _ = try await b.intercom.execute(.answer(atB))
            await SiteSwitchEngineTests.flushed(b)
            // The proxy CANCELs A's fork once B's 200 OK went through it.
            a.phone.end(atA, reason: .answeredElsewhere)
            let ended = try await Self.endEvent(a, atA)
            #expect(ended.takenAt == SiteDeskRef(desk: "B", operatorName: "anna"))
            #expect(ended.json["desk"]?.stringValue == "B" && ended.json["operator"]?.stringValue == "anna", "\(ended.json.encoded)")
            // An attached screen reads them back from the control socket's JSON.
            #expect(IntercomEvent(json: ended.json)?.takenAt == ended.takenAt)
            // One call at the site, rung at both desks, claimed by B.
            let call = try await store.call(SiteCallKey(Self.callID))
            #expect(call?.claim?.desk == "B" && call?.claim?.kind == .answered)
            #expect(Set(call?.legs.map(\.desk) ?? []) == ["A", "B"], "\(String(describing: call))")
            #expect(call?.legs.first { $0.desk == "A" }?.reason == CallEndReason.answeredElsewhere.rawValue)
        }
    }

    /// The wait for another desk's claim runs beside the phone's events: a new ring at A is handled
    /// while A's lost leg still waits to learn who took it (the proxy's CANCEL came before B's claim).
    @Test func theWaitForAClaimHoldsUpNoRing() async throws {
        try await SiteSwitchEngineTests.twoDesks { a, b, _ in
            let (atA, atB) = try await Self.ringBoth(a, b)
            a.phone.end(atA, reason: .answeredElsewhere)
            try await a.clock.waitForSleeper(endingIn: .milliseconds(100))
            let next = a.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress, sipCallID: "fork-2@10.0.0.5")
            _ = try await a.incoming(next)
            _ = try await b.intercom.execute(.answer(atB))
            await SiteSwitchEngineTests.flushed(b)
            a.clock.advance(by: .milliseconds(100))
            #expect(try await Self.endEvent(a, atA).takenAt == SiteDeskRef(desk: "B", operatorName: "anna"))
        }
    }

    @Test func aDeskOffDutyRefusesItsForkWith480() async throws {
        try await SiteSwitchEngineTests.twoDesks { a, _, store in
            _ = try await a.intercom.execute(.duty(on: false, operator: nil))
            let id = a.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress, sipCallID: Self.callID)
            #expect(try await a.ended(id) == .declined)
            #expect(a.phone.requests.all == [.decline(id, .temporarilyUnavailable)])
            await SiteSwitchEngineTests.flushed(a)
            let leg = try await store.call(SiteCallKey(Self.callID))?.legs.first { $0.desk == "A" }
            #expect(leg?.reason == SiteLink.refusedOffDuty, "\(String(describing: leg))")
        }
    }

    /// Both desks' escalations fall due; A's claim lands first, so A alone answers and transfers the
    /// call blind to the guard, and B's leg ends naming A.
    @Test func anUnansweredRingIsEscalatedByExactlyOneDesk() async throws {
        let guardURI = "sip:guard@10.0.0.9"
        try await SiteSwitchEngineTests.twoDesks(escalation: (.seconds(30), guardURI)) { a, b, store in
            let atA = a.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress, sipCallID: Self.callID)
            let atB = b.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress, sipCallID: Self.callID)
            for rig in [a, b] { try await rig.clock.waitForSleeper(endingIn: .seconds(30)) }
            a.clock.advance(by: .seconds(30))
            _ = try await a.phone.requests.wait(for: "A transfers the call to the guard") { $0 == .transfer(atA, to: guardURI) }
            b.clock.advance(by: .seconds(30))
            let claim = try await store.call(SiteCallKey(Self.callID))?.claim
            #expect(claim?.kind == .escalated && claim?.desk == "A" && claim?.target == guardURI, "\(String(describing: claim))")
            b.phone.end(atB, reason: .answeredElsewhere)
            #expect(try await Self.endEvent(b, atB).takenAt?.desk == "A")
            #expect(!b.phone.requests.all.contains { if case .answer = $0 { true } else if case .transfer = $0 { true } else { false } },
                    "\(b.phone.requests.all)")
            #expect(a.phone.requests.all.filter { if case .answer = $0 { true } else { false } }.count == 1)
        }
    }

    /// Answered before its escalation was due: nothing is escalated when the time comes.
    @Test func aRingAnsweredInTimeIsNotEscalated() async throws {
        try await SiteSwitchEngineTests.twoDesks(escalation: (.seconds(30), "sip:guard@10.0.0.9")) { a, _, store in
            let id = a.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress, sipCallID: Self.callID)
            try await a.clock.waitForSleeper(endingIn: .seconds(30))
            _ = try await a.intercom.execute(.answer(id))
            _ = try await a.answered(id)
            a.clock.advance(by: .seconds(30))
            await a.settle()
            await SiteSwitchEngineTests.flushed(a)
            #expect(!a.phone.requests.all.contains { if case .transfer = $0 { true } else { false } }, "\(a.phone.requests.all)")
            #expect(try await store.call(SiteCallKey(Self.callID))?.claim?.kind == .answered)
        }
    }

    @Test func aLoneDeskEndsAnAnsweredElsewhereCallUnnamed() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig in
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress, sipCallID: Self.callID)
            _ = try await rig.incoming(id)
            rig.phone.end(id, reason: .answeredElsewhere)
            let ended = try await Self.endEvent(rig, id)
            #expect(ended.takenAt == nil && ended.json["desk"] == nil && ended.json["operator"] == nil, "\(ended.json.encoded)")
            #expect(rig.phone.requests.all.isEmpty)
        }
    }
}
