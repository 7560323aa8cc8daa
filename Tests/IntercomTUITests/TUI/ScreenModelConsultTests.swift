import Foundation
import Testing
import IntercomBase
import IntercomCore
import IntercomPhone
@testable import IntercomTUI

/// Attended transfer on the screen (issue 25): `T` asks whom to consult, the message line and
/// the key bar follow the consultation (`T transfer to flat12`, `Esc back to entrance`), and a
/// failed one is said with its reason until a key.
@Suite struct ScreenModelConsultTests {
    let ref = IntercomEvent.CallRef(id: CallID("c1"), panel: "entrance", from: "sip:100001@127.0.0.1")

    func step(_ state: IntercomEvent.ConsultState, error: String? = nil) -> IntercomEvent {
        IntercomEvent(.transferConsult(ref, state: state, to: "sip:flat12@10.0.0.7", target: "flat12", consultCall: CallID("c2"),
                                       error: error))
    }

    @Test func capitalTConsultsOnlyInACall() {
        let T = Int32(UInt8(ascii: "T"))
        #expect(KeyAction.of(key: T, inCall: true, ringing: false, quitAsked: false, kiosk: false) == .consult)
        #expect(KeyAction.of(key: T, inCall: false, ringing: true, quitAsked: false, kiosk: false) == nil)
    }

    @Test func theKeyBarAndMessageFollowTheConsultation() {
        var model = ScreenModel()
        model.apply(IntercomEvent(.callIncoming(ref)))
        model.apply(IntercomEvent(.callAnswered(ref, by: .user)))
        #expect(model.keyBar(kiosk: nil, directory: []).fit(200).contains("T consult"))
        model.transferPrompt = "fl"
        model.transferAttended = true
        #expect(model.promptLine(filterShown: nil) == "consult first, call (name or sip:URI): fl_")
        model.transferPrompt = nil

        model.apply(step(.calling))
        #expect(model.message?.text == "entrance on hold, calling flat12… (Esc: back to entrance)")
        #expect(model.keyBar(kiosk: nil, directory: []).fit(200) == " calling flat12…  Esc back to entrance  h hang up entrance  ? help")
        model.apply(step(.answered))
        #expect(model.keyBar(kiosk: nil, directory: []).fit(80).hasPrefix(" T transfer to flat12  Esc back to entrance"))
        model.apply(step(.transferring))
        #expect(model.pendingTransfer?.target == "flat12")
        model.apply(IntercomEvent(.callTransferred(ref, to: "sip:flat12@10.0.0.7", target: "flat12", ok: true, error: nil)))
        #expect(model.consultation == nil && model.message?.text == "entrance transferred to flat12")
    }

    @Test func aFailedOrCancelledConsultationGoesBackToTheCall() {
        var model = ScreenModel()
        model.apply(IntercomEvent(.callIncoming(ref)))
        model.apply(IntercomEvent(.callAnswered(ref, by: .user)))
        model.apply(step(.calling))
        model.apply(step(.failed, error: "busy (Busy Here)"))
        #expect(model.consultation == nil)
        #expect(model.message?.text == "transfer of entrance to flat12 failed: busy (Busy Here); back to entrance" && model.message?.warn == true)
        #expect(model.recent.first?.hasSuffix("transfer of entrance to flat12 failed: busy (Busy Here)") == true)
        #expect(model.keyBar(kiosk: nil, directory: []).fit(200).hasPrefix(" h hang up entrance"))
        model.apply(step(.calling))
        model.apply(step(.cancelled))
        #expect(model.consultation == nil && model.message?.text == "back to entrance; the call to flat12 was hung up")
        // The call ending mid-consultation leaves nothing behind.
        model.apply(step(.calling))
        model.apply(IntercomEvent(.callEnded(ref, reason: .remoteHangup, durationSeconds: 5)))
        #expect(model.consultation == nil)
    }

    @Test func consultStepsTravelOverTheControlSocketAsEvents() throws {
        let event = step(.failed, error: "timeout: nobody answered")
        let json = event.json
        #expect(json["event"]?.stringValue == "transfer_consult" && json["state"]?.stringValue == "failed"
                && json["consult_call"]?.stringValue == "c2" && json["error"]?.stringValue == "timeout: nobody answered", "\(json.encoded)")
        #expect(IntercomEvent(json: json)?.kind == event.kind)
    }
}
