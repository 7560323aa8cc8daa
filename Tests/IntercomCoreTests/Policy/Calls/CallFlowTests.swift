import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import Testing

/// The flows that drive the phone on the engine (`CallWait`, `IncomingCallFlow`,
/// `AttendedTransferFlow`), called directly on the engine of a rig with the manual clock; the
/// commands and events that reach them are pinned by the policy suites.
@Suite struct CallFlowTests {
    /// A wait ends when its call is gone, when its time passes on the engine's clock, or when the
    /// call ends while it waits.
    @Test func aWaitEndsByTheCallOrByTheEngineClock() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            #expect(try await CallWait.wait(for: CallID("c-none"), upTo: 5, until: { _ in true }, on: rig.intercom) == .ended)
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(id)
            #expect(try await CallWait.wait(for: id, upTo: 5, until: { $0.stage == .ringing }, on: rig.intercom) == .reached)
            async let timedOut = CallWait.wait(for: id, upTo: 5, until: { $0.stage == .active }, on: rig.intercom)
            try await rig.clock.waitForSleeper(endingIn: .seconds(5))
            rig.clock.advance(by: .seconds(5))
            #expect(try await timedOut == .timedOut)
            async let ended = CallWait.wait(for: id, upTo: 5, until: { $0.stage == .active }, on: rig.intercom)
            try await rig.clock.waitForSleeper(endingIn: .seconds(5))
            rig.phone.end(id)
            #expect(try await ended == .ended)
        }
    }

    /// A call refused busy is reported as one that came and ended busy, and holds nothing.
    @Test func aBusyRefusalIsReportedWithoutACall() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            let busy = CallInfo(id: CallID("c-busy"), direction: .incoming, from: CallPolicyTests.panelURI,
                                to: "sip:intercom@127.0.0.1", remoteHost: "10.0.0.5",
                                source: CallPolicyTests.panelAddress, offersVideo: false)
            await IncomingCallFlow(phone: rig.phone).refusedBusy(busy, detail: "Busy Here", on: rig.intercom)
            #expect(try await rig.incoming(busy.id).panel == "entrance")
            #expect(try await rig.ended(busy.id) == .busy)
            #expect(rig.phone.requests.all.isEmpty, "\(rig.phone.requests.all)")
        }
    }

    /// Completing or cancelling with no consultation under way touches neither the phone nor a call.
    @Test func noConsultationNothingToCompleteOrCancel() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            let flow = AttendedTransferFlow(phone: rig.phone)
            await #expect(throws: IntercomError.self) { try await flow.step(nil, .complete, on: rig.intercom) }
            await #expect(throws: IntercomError.self) { try await flow.step(nil, .cancel, on: rig.intercom) }
            await #expect(throws: IntercomError.self) { try await flow.step(nil, .consult(target: "sip:flat@127.0.0.1"), on: rig.intercom) }
            #expect(rig.phone.requests.all.isEmpty, "\(rig.phone.requests.all)")
        }
    }
}
