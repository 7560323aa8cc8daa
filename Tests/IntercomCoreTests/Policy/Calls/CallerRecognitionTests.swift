import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomPhone
import Testing

/// Who a call is from as its own part (`CallerRecognition`): a panel by its packets' source, an
/// impostor and a stranger under `reject` refused, a stranger under `accept` let ring. The engine's
/// side (the decline, no events; an operator's panel) is in CallerTrustTests and OperatorPolicyTests.
@Suite struct CallerRecognitionTests {
    static func recognise(_ from: String, source: String?, unknown: UnknownCallerPolicy = .reject) -> CallerRecognition.Caller {
        let panels = [CallPolicyTests.entrance()]
        let sip = SIPSettings(unknownCallers: unknown)
        let config = IntercomConfig(sip: sip, panels: panels, daemon: DaemonSettings(socketPath: "/tmp/unused.sock"))
        let gate = CallerGate(CallerDirectory(panels: panels, sip: sip, logger: .silent))
        var callers = CallerRecognition()
        let info = CallInfo(id: CallID("c1"), direction: .incoming, from: from, to: "sip:desk@10.0.0.1", remoteHost: nil,
                            source: source, offersVideo: true)
        return callers.recognise(info, gate: gate, config: config, operatorDoors: OperatorDoorDirectory(), logger: .silent)
    }

    @Test func aPanelIsKnownByItsPacketsSource() {
        let caller = Self.recognise("sip:100001@10.0.0.5", source: "10.0.0.5")
        #expect(caller.panel?.name == "entrance" && !caller.refused && !caller.unlistedOperatorPanel)
    }

    @Test func anImpostorIsRefusedWhatever() {
        #expect(Self.recognise("sip:100001@10.0.0.5", source: "10.0.0.9").refused)
        #expect(Self.recognise("sip:100001@10.0.0.5", source: "10.0.0.9", unknown: .accept).refused)
    }

    @Test func aStrangerRingsOnlyUnderAccept() {
        #expect(Self.recognise("sip:scanner@203.0.113.9", source: "203.0.113.9").refused)
        let stranger = Self.recognise("sip:caller@203.0.113.9", source: "203.0.113.9", unknown: .accept)
        #expect(!stranger.refused && stranger.panel == nil && stranger.operatorDoor == nil)
    }
}
