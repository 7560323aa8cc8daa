import Foundation
import IntercomCore
import IntercomBase
import IntercomPhone
@testable import IntercomTUI
import Testing
import IntercomTestSupport

/// The concierge desk on the screen: a call answered at another desk leaves the queue with its
/// own words; `t` in a call asks for a transfer target; a transfer's outcome is said.
@Suite struct ScreenModelDeskTests {
    let ref = IntercomEvent.CallRef(id: CallID("c1"), panel: "entrance", from: "sip:100001@127.0.0.1")

    @Test func answeredElsewhereLeavesTheQueueAndSaysSo() {
        var model = ScreenModel()
        model.apply(IntercomEvent(.callIncoming(ref)))
        #expect(model.ringing.count == 1)
        model.apply(IntercomEvent(.callEnded(ref, reason: .answeredElsewhere, durationSeconds: 0)))
        #expect(model.calls.isEmpty && model.ringing.isEmpty)
        #expect(model.outcome?.text == "entrance: answered at another desk", "\(String(describing: model.outcome))")
        #expect(model.recent.first?.hasSuffix("entrance: answered at another desk") == true)
    }

    /// At a desk of a site the daemon names the desk that took the call and its operator.
    @Test func answeredAtAnotherDeskOfTheSiteNamesItAndItsOperator() {
        var model = ScreenModel()
        model.apply(IntercomEvent(.callIncoming(ref)))
        model.apply(IntercomEvent(.callEnded(ref, reason: .answeredElsewhere, durationSeconds: 0),
                                  takenAt: SiteDeskRef(desk: "B", operatorName: "anna")))
        #expect(model.outcome?.text == "entrance: answered at B (anna)", "\(String(describing: model.outcome))")
        #expect(model.missed.count == 0)
    }

    /// Attached, a call another face answered says which: a screen is where, `ctl` is how; a daemon
    /// that names nobody is "another screen".
    @Test(arguments: [
        (FaceIdentity(.screen, screen: 2, kind: "kiosk", user: "anna") as FaceIdentity?, "answered at screen 2 (kiosk, anna)"),
        (FaceIdentity(.ctl, user: "root"), "answered with ctl (root)"),
        (nil, "answered on another screen"),
    ])
    func answeredOnAnotherFaceSaysWhich(who: FaceIdentity?, line: String) {
        var model = ScreenModel()
        model.apply(IntercomEvent(.callIncoming(ref)))
        let answered = IntercomEvent(.callAnswered(ref, by: .user), who: who)
        model.apply(answered)
        model.answeredElsewhere(ref.id, by: answered.who)
        #expect(model.message?.text == "entrance \(line)", "\(String(describing: model.message))")
        #expect(model.infoLines(now: Date(), height: 20).contains(InfoLine(line, .dim)))
    }

    @Test func tAsksForATargetOnlyInACall() {
        #expect(KeyAction.of(key: Int32(UInt8(ascii: "t")), inCall: true, ringing: false, quitAsked: false, kiosk: false) == .transfer)
        #expect(KeyAction.of(key: Int32(UInt8(ascii: "t")), inCall: false, ringing: true, quitAsked: false, kiosk: false) == nil)
    }

    @Test func transferOutcomesAreSaid() {
        var model = ScreenModel()
        model.apply(IntercomEvent(.callIncoming(ref)))
        model.apply(IntercomEvent(.callAnswered(ref, by: .user)))
        model.apply(IntercomEvent(.callTransferred(ref, to: "sip:4012@pbx", target: "flat12", ok: false, error: "refused")))
        #expect(model.message?.text == "transfer of entrance to flat12 failed: refused" && model.message?.warn == true)
        model.apply(IntercomEvent(.callTransferred(ref, to: "sip:4012@pbx", target: "flat12", ok: true, error: nil)))
        #expect(model.message?.text == "entrance transferred to flat12" && model.message?.warn == false)
        model.transferPrompt = "fl"
        model.transferCall = CallID("c9")
        model.apply(IntercomEvent(.callEnded(IntercomEvent.CallRef(id: CallID("c3"), panel: "gate", from: "sip:2@x"),
                                             reason: .missed, durationSeconds: 0)))
        #expect(model.transferPrompt == "fl", "another call ending leaves the prompt open")
        model.transferCall = ref.id
        model.apply(IntercomEvent(.callEnded(ref, reason: .transferred, durationSeconds: 12)))
        #expect(model.transferPrompt == nil && model.calls.isEmpty)
        #expect(model.outcome?.text == "entrance: transferred (0:12)")
    }

    @Test func transferTravelsOverTheControlSocketProtocol() throws {
        let request = ControlRequest(id: .integer(4), action: .command(.transfer(CallID("c2"), target: "flat12")))
        #expect(request.json.encoded == #"{"command":"transfer","id":4,"call":"c2","target":"flat12"}"#)
        #expect(try ControlRequest.parse(request.json.encoded).get() == request)
        guard case .failure(let failure) = ControlRequest.parse(#"{"command":"transfer"}"#) else {
            Issue.record("a transfer without a target parsed")
            return
        }
        #expect(failure.message.contains("target"))
    }
}
