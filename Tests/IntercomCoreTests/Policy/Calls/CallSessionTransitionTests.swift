import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import Testing

/// A call's life as its own methods: ring → answer → establish → end, the answer the phone
/// refused, who ended it, and a consultation that becomes an ordinary call.
@Suite struct CallSessionTransitionTests {
    @Test func answeringCancelsTheDelayedAnswerAndAFailedOneRingsOn() async {
        var call = CallRegistryTests.session("c1", at: 0)
        let pending = call.start(CallSession.pendingAnswer) {
            while !Task.isCancelled { await Task.yield() }
        }
        call.answering(by: .user, who: nil)
        await pending?.value
        #expect(pending?.isCancelled == true)
        #expect(call.stage == .answering && call.answeredBy == .user)
        call.answerFailed()
        #expect(call.stage == .ringing)
        call.answering(by: .auto, who: .auto)
        call.establish()
        call.answerFailed()
        #expect(call.stage == .active && call.answeredWho == .auto, "an established call stays answered")
        #expect(call.answeredEvent?.kind == .callAnswered(call.ref, by: .auto) && call.answeredEvent?.who == .auto)
        call.end(.hangup)
    }

    @Test func theEndClosesTheCallsTasksAndKeepsWhy() async {
        var call = CallRegistryTests.session("c1", at: 0)
        call.endedBy(.notification)
        call.end(.declined, detail: "Busy Here")
        #expect(call.endedWho == .notification && call.endReason == .declined && call.endDetail == "Busy Here")
        #expect(call.start { Issue.record("a task started after the call ended") } == nil)
    }

    @Test func aPlacedCallIsAnnouncedOnceDialKnowsItsPanel() {
        let info = CallInfo(id: CallID("o1"), direction: .outgoing, from: "", to: "sip:entrance@10.0.0.5", remoteHost: nil, offersVideo: true)
        var call = CallSession(info: info, panel: nil, stage: .dialing, since: ManualClock.epoch, announced: false, census: nil)
        #expect(!call.announced && call.name == nil && call.caller == "sip:entrance@10.0.0.5")
        call.announce(panel: PanelConfig(name: "entrance", url: "http://127.0.0.1:1"))
        #expect(call.announced && call.name == "entrance")
        call.end(.hangup)
    }

    @Test func aConsultationLeftTalkingBecomesAnOrdinaryCall() {
        var call = CallRegistryTests.session("o2", direction: .outgoing, stage: .dialing, at: 0)
        call.consults(for: CallID("c1"))
        #expect(!call.announced && call.transfer.consultationOf == CallID("c1"))
        #expect(call.answeredEvent == nil, "a consultation is announced by no call_answered")
        call.becomeOrdinary()
        #expect(call.announced && call.transfer.consultationOf == nil)
        #expect(call.answeredEvent?.kind == .callAnswered(call.ref, by: .remote))
        call.end(.hangup)
    }
}
