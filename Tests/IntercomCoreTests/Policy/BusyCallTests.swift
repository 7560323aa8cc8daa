import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import IntercomPhoneTestSupport
import Testing

/// Calls the phone refused 486 Busy because it already held `[sip] max_calls` (issue 25): the door
/// rang all the same, so it is reported (`call_incoming`, then `call_ended` reason `busy`) and
/// journaled as missed; who rang is decided by the packets' source as for any call, and refused
/// callers stay unreported. The real refusal by liblinphone: DaemonBusyCallTests.
@Suite(.removesTestFolders) struct BusyCallTests {
    static let entrance = CallPolicyTests.entrance()

    @Test func aPanelRefusedBusyIsReportedAsACallThatEndedBusy() async throws {
        try await EngineRig.run(panels: [Self.entrance]) { rig throws in
            let ringing = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(ringing)
            let busy = CallID("c-busy")
            rig.phone.report(.refusedBusy(CallInfo(id: busy, direction: .incoming, from: "sip:100001@10.0.0.5",
                                                   to: "sip:intercom@127.0.0.1", remoteHost: "10.0.0.5",
                                                   source: CallPolicyTests.panelAddress, offersVideo: false),
                                          detail: "Busy - too many calls"))
            #expect(try await rig.incoming(busy).panel == "entrance")
            #expect(try await rig.ended(busy) == .busy)
            let ended = try #require(rig.events.all.first { if case .callEnded(let c, _, _) = $0.kind { c.id == busy } else { false } })
            #expect(ended.json.encoded.contains(#""reason":"busy""#), "\(ended.json.encoded)")
            // Nothing to act on: it is not a call in progress, and the one ringing still rings.
            let status = await rig.intercom.status.encoded
            #expect(!status.contains("c-busy") && status.contains(ringing.rawValue), "\(status)")
            #expect(!rig.phone.requests.all.contains { $0.description.contains("c-busy") }, "\(rig.phone.requests.all)")
        }
    }

    @Test(arguments: [("sip:scanner@203.0.113.9", "203.0.113.9"), ("sip:100001@10.0.0.5", "10.0.0.9")])
    func aRefusedCallerRefusedBusyLeavesNoTrace(from: String, source: String) async throws {
        try await EngineRig.run(panels: [Self.entrance]) { rig throws in
            rig.phone.report(.refusedBusy(CallInfo(id: CallID("c-stranger"), direction: .incoming, from: from,
                                                   to: "sip:intercom@127.0.0.1", remoteHost: nil, source: source,
                                                   offersVideo: false), detail: nil))
            let real = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(real)
            #expect(rig.events.all.map(\.name).prefix(2) == ["started", "call_incoming"], "\(rig.events.all.map(\.name))")
        }
    }

    @Test func aStrangerRefusedBusyUnderAcceptIsReportedWithoutAPanel() async throws {
        try await EngineRig.run(panels: [Self.entrance], sip: SIPSettings(unknownCallers: .accept)) { rig throws in
            let id = CallID("c-guest")
            rig.phone.report(.refusedBusy(CallInfo(id: id, direction: .incoming, from: "sip:guest@203.0.113.9",
                                                   to: "sip:intercom@127.0.0.1", remoteHost: nil, source: "203.0.113.9",
                                                   offersVideo: false), detail: nil))
            #expect(try await rig.incoming(id).panel == nil)
            #expect(try await rig.ended(id) == .busy)
        }
    }

    @Test func theDefaultLimitHoldsEveryPanelPlusAFew() throws {
        #expect(SIPSettings.automaticMaxCalls(panels: 0) == 10)
        #expect(SIPSettings.automaticMaxCalls(panels: 16) == 20)
        #expect(SIPSettings(maxCalls: 20).effectiveMaxCalls(panels: 64) == 20)
        let panels = (1...16).map { PanelConfig(name: "panel-\($0)", url: "http://10.0.0.\($0)") }
        let settings = PhoneSettings(config: IntercomConfig(panels: panels, daemon: DaemonSettings(socketPath: "/nonexistent/control.sock")), environment: [:])
        #expect(settings.maxCalls == 20)
    }
}

/// The journal keeps a busy refusal as a missed call, as `log --missed` lists it.
@Suite(.removesTestFolders) struct BusyCallJournalTests {
    @Test func aBusyCallIsJournaledAsMissed() async throws {
        let (recorder, directory) = try JournalRecorderStateTests.recorder()
        defer { withExtendedLifetime(directory) {} }
        let c = JournalRecorderStateTests.call(1)
        await recorder.record(IntercomEvent(.callIncoming(c)))
        await recorder.record(IntercomEvent(.callEnded(c, reason: .busy, durationSeconds: 0)))
        let missed = try recorder.journal.entries(JournalQuery(missedOnly: true))
        #expect(missed.map(\.call) == ["c1"])
        #expect(missed.first?.outcome == "busy" && missed.first?.outcomeText == "missed (busy)", "\(missed)")
    }
}
