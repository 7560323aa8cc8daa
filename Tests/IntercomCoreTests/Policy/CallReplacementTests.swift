import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import IntercomPhoneTestSupport
import Testing

/// A panel calling again while its call is answered: the new call ends the conversation only
/// once it is confirmed (its ACK and media came from the panel's address). A forged INVITE from
/// the panel's address leaves the conversation alone; an unconfirmed one answered by mistake is
/// hung up on the call's own timer and the conversation taken off hold. A ringing, unanswered
/// earlier call is replaced at ring time as before (`CallPolicyTests.aPanelCallingAgainReplacesItsCall`).
@Suite(.removesTestFolders) struct CallReplacementTests {
    static let panelURI = CallPolicyTests.panelURI
    static let panelAddress = CallPolicyTests.panelAddress

    /// The resident talks with the panel (answered as `autoAnswer` says, confirmed).
    static func conversation(_ rig: EngineRig, autoAnswer: AutoAnswer = .off) async throws -> CallID {
        let first = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
        _ = try await rig.incoming(first)
        switch autoAnswer {
        case .off:
            try await rig.intercom.execute(.answer(first))
        case .on:
            break
        case .after(let seconds):
            try await rig.clock.waitForSleeper(endingIn: .seconds(seconds))
            rig.clock.advance(by: .seconds(seconds))
        }
        _ = try await rig.answered(first)
        await rig.settle()
        return first
    }

    /// After `conversation`, the panel's address calls again and the resident answers that call
    /// too: it is established, not confirmed (the test confirms it, or lets the wait run out).
    static func answeredSecondCall(_ rig: EngineRig) async throws -> (first: CallID, second: CallID) {
        let first = try await conversation(rig)
        rig.phone.answerOutcome = .establishedOnly
        let second = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
        _ = try await rig.incoming(second)
        try await rig.intercom.execute(.answer(second))
        _ = try await rig.answered(second)
        return (first, second)
    }

    static func callIDs(_ rig: EngineRig) async -> Set<String> {
        guard case .array(let calls) = await rig.intercom.status["calls"] else { return [] }
        return Set(calls.compactMap { $0["call"]?.stringValue })
    }

    /// The forged INVITE rings (it claims the panel), is not answered automatically — answering
    /// would put the conversation on hold — and goes without touching the conversation.
    @Test(arguments: [AutoAnswer.off, .on, .after(seconds: 2)])
    func aForgedInviteLeavesTheConversationAlone(autoAnswer: AutoAnswer) async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance { $0.autoAnswer = autoAnswer }]) { rig throws in
            let first = try await Self.conversation(rig, autoAnswer: autoAnswer)
            let before = rig.phone.requests.all
            let forged = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            #expect(try await rig.incoming(forged).panel == "entrance")
            await rig.settle()
            rig.clock.advance(by: .seconds(60))
            await rig.settle()
            #expect(rig.phone.requests.all == before, "the forged call was answered or the conversation ended: \(rig.phone.requests.all)")
            #expect(await Self.callIDs(rig) == [first.rawValue, forged.rawValue])
            rig.phone.end(forged, reason: .missed)
            _ = try await rig.ended(forged)
            await rig.settle()
            #expect(rig.phone.requests.all == before)
            #expect(await Self.callIDs(rig) == [first.rawValue])
        }
    }

    /// The conversation ends (the resident hangs up, or `media_timeout` ends a rebooted panel's
    /// ghost): the call held back from auto-answer is answered as the panel says, as it would
    /// have been had it rung then — the delay of `after` counted from that moment.
    @Test(arguments: [AutoAnswer.on, .after(seconds: 2)])
    func aHeldBackCallIsAnsweredAsThePanelSaysOnceTheConversationEnds(autoAnswer: AutoAnswer) async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance { $0.autoAnswer = autoAnswer }]) { rig throws in
            let first = try await Self.conversation(rig, autoAnswer: autoAnswer)
            let second = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.incoming(second)
            await rig.settle()
            #expect(!rig.phone.requests.all.contains(.answer(second, recordTo: nil)))
            rig.phone.end(first, reason: .error, detail: "Media lost")
            _ = try await rig.ended(first)
            if case .after(let seconds) = autoAnswer {
                try await rig.clock.waitForSleeper(endingIn: .seconds(seconds))
                rig.clock.advance(by: .seconds(seconds) - .milliseconds(1))
                await rig.settle()
                #expect(!rig.phone.requests.all.contains(.answer(second, recordTo: nil)), "answered before its delay")
                rig.clock.advance(by: .milliseconds(1))
            }
            #expect(try await rig.answered(second) == .auto)
            #expect(!rig.phone.requests.all.contains(.replace(first)))
        }
    }

    /// The panel really called again (it rebooted): the resident answers, the call is confirmed,
    /// and then the old one ends, as the panel's hang-up.
    @Test func aConfirmedNewCallReplacesTheConversation() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            let (first, second) = try await Self.answeredSecondCall(rig)
            await rig.settle()
            #expect(!rig.phone.requests.all.contains(.replace(first)), "replaced before the new call was confirmed")
            rig.phone.confirm(second)
            #expect(try await rig.ended(first) == .remoteHangup)
            #expect(rig.phone.requests.all.filter { if case .replace = $0 { true } else { false } } == [.replace(first)])
            #expect(await Self.callIDs(rig) == [second.rawValue])
        }
    }

    /// Answered by mistake, the forged call never confirms: on its own timer, exactly the
    /// confirmation wait after it was established, it is hung up and the conversation (which
    /// answering it put on hold) is taken off hold. Once it ended, its timer is gone with it.
    @Test func anUnconfirmedNewCallIsHungUpAndTheConversationGoesOn() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            let (first, forged) = try await Self.answeredSecondCall(rig)
            try await rig.clock.waitForSleeper(endingIn: .seconds(5))
            rig.clock.advance(by: .milliseconds(4999))
            await rig.settle()
            #expect(!rig.phone.requests.all.contains(.hangup(forged)))
            rig.clock.advance(by: .milliseconds(1))
            #expect(try await rig.ended(forged) == .hangup)
            try await rig.phone.requests.wait(for: "the conversation taken off hold") { $0 == .hold(first, false) }
            #expect(!rig.phone.requests.all.contains(.replace(first)))
            #expect(await Self.callIDs(rig) == [first.rawValue])
            #expect(await CallTaskOwnershipTests.tasksLeft(rig, call: forged) == 0, "the forged call's tasks outlived it")
        }
    }

    /// The resident hangs up the unconfirmed call before the wait is over: the conversation is
    /// taken off hold at once, and nothing fires later.
    @Test func hangingUpTheUnconfirmedCallResumesTheConversation() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            let (first, forged) = try await Self.answeredSecondCall(rig)
            try await rig.intercom.execute(.hangup(forged))
            _ = try await rig.ended(forged)
            try await rig.phone.requests.wait(for: "the conversation taken off hold") { $0 == .hold(first, false) }
            rig.clock.advance(by: .seconds(10))
            await rig.settle()
            #expect(rig.phone.requests.all.filter { if case .hangup = $0 { true } else { false } } == [.hangup(forged)])
            #expect(await Self.callIDs(rig) == [first.rawValue])
        }
    }
}
