import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import Testing

/// The engine's calls as one part (`CallRegistry`): which call a command without an id means,
/// what an ended call leaves behind, and the waits a change of the calls or a timeout wakes.
/// Sessions dated on a manual clock; no engine, no phone.
@Suite struct CallRegistryTests {
    static func session(_ id: String, panel: String? = "entrance", direction: CallDirection = .incoming,
                        stage: CallSession.Stage = .ringing, at seconds: Int, announced: Bool = true,
                        clock: ManualClock = ManualClock()) -> CallSession {
        let info = CallInfo(id: CallID(id), direction: direction, from: "sip:100001@10.0.0.5", to: "sip:desk@10.0.0.1",
                            remoteHost: nil, offersVideo: true)
        return CallSession(info: info, panel: panel.map { PanelConfig(name: $0, url: "http://127.0.0.1:1") }, stage: stage,
                           since: clock.start.addingTimeInterval(TimeInterval(seconds)), announced: announced, census: nil)
    }

    @Test func aCommandWithoutAnIdTakesTheCallThatWaitedLongest() throws {
        var calls = CallRegistry()
        calls.add(Self.session("c2", at: 20))
        calls.add(Self.session("c1", at: 10))
        #expect(try calls.pick(nil, stage: .ringing, what: "ringing").info.id == CallID("c1"))
        // Nothing answered: a hang-up takes the ringing call.
        #expect(try calls.pick(nil, stage: .active, what: "answered").info.id == CallID("c1"))
        #expect(throws: IntercomError.phone(.noSuchCall(CallID("c9")))) { try calls.pick(CallID("c9"), stage: .ringing, what: "ringing") }
        #expect(throws: IntercomError.noCall("ringing")) { try CallRegistry().pick(nil, stage: .ringing, what: "ringing") }
    }

    @Test func aPanelsCurrentCallIsItsAnsweredOne() {
        var calls = CallRegistry()
        calls.add(Self.session("c1", at: 10))
        calls.add(Self.session("c2", stage: .active, at: 20))
        calls.add(Self.session("c3", panel: "garage", at: 5))
        #expect(calls.current(panel: "Entrance")?.info.id == CallID("c2"))
        #expect(calls.current(panel: "garage")?.info.id == CallID("c3"))
        #expect(calls.current(panel: "yard") == nil)
        #expect(calls.inConversation)
    }

    @Test func anEndedCallIsKeptUntilItsTasksReturnedAndItWasSeen() async throws {
        var calls = CallRegistry()
        calls.add(Self.session("c1", direction: .outgoing, stage: .dialing, at: 0, announced: false))
        let ended = calls.end(CallID("c1"), .declined, detail: "Busy Here")
        let again = calls.end(CallID("c1"), .hangup, detail: nil)
        #expect(ended?.endReason == .declined && ended?.endDetail == "Busy Here" && ended?.tasks.isEnded == true)
        #expect(calls[CallID("c1")] == nil && calls.count == 0)
        #expect(again == nil, "a call ends once")
        // An ended call nobody has seen yet stays; once seen and idle, the next end sweeps it.
        calls.add(Self.session("c2", at: 1))
        _ = calls.end(CallID("c2"), .hangup, detail: nil)
        #expect(calls.ended.map(\.info.id) == [CallID("c1"), CallID("c2")])
        let seen = calls.endedBeforePlaced(CallID("c1"))
        #expect(seen?.announced == true)
        calls.add(Self.session("c3", at: 2))
        _ = calls.end(CallID("c3"), .hangup, detail: nil)
        #expect(calls.ended.map(\.info.id) == [CallID("c3")])
        #expect(calls.lastEnded(CallID("c3"))?.endReason == .hangup)
        calls.forgetEnded()
        #expect(calls.everyCall.isEmpty)
    }

    @Test func everyChangeOfALiveCallWakesTheWaits() async {
        var calls = CallRegistry()
        let seen = calls.changes.version
        calls.add(Self.session("c1", at: 0))
        // Returns at once: the change came after `seen`.
        await calls.changes.next(after: seen)
        let before = calls.changes.version
        calls[CallID("c1")]?.establish()
        #expect(calls.changes.version != before)
        #expect(calls[CallID("c1")]?.stage == .active)
    }

    @Test func aWaitTimesOutOnlyWhileItRuns() {
        var calls = CallRegistry()
        let token = calls.waitStarted()
        #expect(!calls.hasTimedOut(token))
        let version = calls.changes.version
        calls.expire(token)
        #expect(calls.hasTimedOut(token) && calls.changes.version != version)
        calls.waitEnded(token)
        let after = calls.changes.version
        // A timer that fires after its wait returned changes nothing.
        calls.expire(token)
        #expect(!calls.hasTimedOut(token) && calls.changes.version == after)
    }
}

/// Which calls a new call from the same panel replaces (`CallRegistry+Replacement`).
@Suite struct CallReplacementQueryTests {
    @Test func aNewCallReplacesOnlyTheSamePanelsSameUser() {
        var calls = CallRegistry()
        calls.add(CallRegistryTests.session("c2", at: 20))
        calls.add(CallRegistryTests.session("c1", at: 10))
        calls.add(CallRegistryTests.session("g1", panel: "garage", at: 5))
        calls.add(CallRegistryTests.session("o1", direction: .outgoing, stage: .active, at: 1))
        let info = CallInfo(id: CallID("c3"), direction: .incoming, from: "sip:100001@10.0.0.5:5060;transport=udp",
                            to: "sip:desk@10.0.0.1", remoteHost: nil, offersVideo: true)
        #expect(calls.earlier(than: info, panel: "entrance").map(\.info.id) == [CallID("c1"), CallID("c2")])
        var other = info
        other.from = "sip:100002@10.0.0.5"
        #expect(calls.earlier(than: other, panel: "entrance").isEmpty, "another device behind the same address")
        #expect(CallRegistry.sipUser("sip:100001@10.0.0.5:5060;x") == "100001" && CallRegistry.sipUser("sip:10.0.0.5") == nil)
    }

    @Test func aRingingCallHeldBackWaitsForItsEarlierCalls() {
        var calls = CallRegistry()
        calls.add(CallRegistryTests.session("c1", stage: .active, at: 0))
        let info = CallInfo(id: CallID("c2"), direction: .incoming, from: "sip:100001@10.0.0.5", to: "sip:desk@10.0.0.1",
                            remoteHost: nil, offersVideo: true)
        calls.add(CallSession(info: info, panel: nil, stage: .ringing, since: ManualClock.epoch, replacing: [CallID("c1"), CallID("c0")],
                              census: nil))
        #expect(calls.heldBack(after: CallID("c1")).map(\.info.id) == [CallID("c2")])
        #expect(calls.heldBack(after: CallID("c9")).isEmpty)
        #expect(calls.live([CallID("c0"), CallID("c1")]) == [CallID("c1")])
    }
}
