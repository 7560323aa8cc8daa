import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomPanel
import IntercomPhone
import IntercomPhoneTestSupport
import Testing

/// Doors on fakes: how a door opens in and outside a call, guest mode (which opens only in a
/// confirmed call), the rate limit on automatic openings, and the timers that hang up after.
@Suite(.removesTestFolders) struct DoorPolicyTests {
    static let panelURI = CallPolicyTests.panelURI
    static let panelAddress = CallPolicyTests.panelAddress

    static func entrance(_ change: (inout PanelConfig) -> Void = { _ in }) -> PanelConfig {
        CallPolicyTests.entrance(change)
    }

    // MARK: - Opening

    @Test func openByHTTPInACall() async throws {
        try await EngineRig.run(panels: [Self.entrance { $0.autoAnswer = .on }]) { rig throws in
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.answered(id)
            try await rig.intercom.execute(.open(panel: nil, door: .main))
            let opened = try await rig.doorOpened()
            #expect(opened.ok && opened.door == "main" && opened.method == "http")
            #expect(rig.panel("entrance").doorRequests.all == [.main])
            #expect(!rig.phone.requests.all.contains { if case .dtmf = $0 { true } else { false } })
        }
    }

    @Test func openByDTMFInACall() async throws {
        try await EngineRig.run(panels: [Self.entrance { $0.autoAnswer = .on; $0.open = .dtmf; $0.dtmfMain = "1" }]) { rig throws in
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.answered(id)
            try await rig.intercom.execute(.open(panel: nil, door: .main))
            #expect(try await rig.doorOpened().method == "dtmf")
            #expect(rig.phone.requests.all.contains(.dtmf(id, "1")))
            #expect(rig.panel("entrance").doorRequests.all.isEmpty)
        }
    }

    /// `open = both`: one way through is enough.
    @Test func withBothOneWayThroughIsEnough() async throws {
        try await EngineRig.run(panels: [Self.entrance { $0.autoAnswer = .on; $0.open = .both }]) { rig throws in
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.answered(id)
            rig.panel("entrance").fail(with: .unreachable("fake panel down"))
            let reply = try await rig.intercom.execute(.open(panel: nil, door: .main))
            guard case .array(let attempts) = reply["attempts"] else { Issue.record("no attempts in \(reply)"); return }
            #expect(attempts.map { $0["ok"]?.boolValue } == [false, true], "\(reply.encoded)")
            #expect(rig.phone.requests.all.contains(.dtmf(id, "1")))
        }
    }

    @Test func openOutsideACallUsesHTTP() async throws {
        try await EngineRig.run(panels: [Self.entrance()]) { rig throws in
            try await rig.intercom.execute(.open(panel: "entrance", door: .alt))
            #expect(try await rig.doorOpened().door == "alt")
            #expect(rig.panel("entrance").doorRequests.all == [.alt])
        }
    }

    @Test func aPanelThatRefusesIsReportedAndThrows() async throws {
        try await EngineRig.run(panels: [Self.entrance()]) { rig throws in
            rig.panel("entrance").fail(with: .authRefused(panel: "entrance"))
            await #expect(throws: IntercomError.panel(.authRefused(panel: "entrance"))) {
                try await rig.intercom.execute(.open(panel: "entrance", door: .main))
            }
            let opened = try await rig.doorOpened()
            #expect(!opened.ok && opened.method == "http" && opened.error != nil)
        }
    }

    /// `o` on a ringing call: answered with the microphone off, the door code sent once media
    /// runs, hung up once the digits had their time on the wire — not before.
    @Test func openWithoutTalkingHangsUpAfterTheDigitsTime() async throws {
        let panel = Self.entrance { $0.open = .dtmf; $0.dtmfMain = "12" }
        try await EngineRig.run(panels: [panel]) { rig throws in
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.incoming(id)
            let opening = Task { try await rig.intercom.execute(.open(panel: nil, door: .main, by: .key)) }
            let digitsTime = Duration.seconds(DoorPolicyTests.dtmfSeconds(panel))
            try await rig.clock.waitForSleeper(endingIn: digitsTime)
            #expect(rig.phone.requests.all.prefix(3) == [.mute(true, call: nil), .answer(id, recordTo: nil), .dtmf(id, "12")])
            rig.clock.advance(by: digitsTime - .milliseconds(1))
            #expect(!rig.phone.requests.all.contains(.hangup(id)), "hung up before the digits were through")
            rig.clock.advance(by: .milliseconds(1))
            _ = try await opening.value
            #expect(rig.phone.requests.all.contains(.hangup(id)))
            try await rig.phone.requests.wait(for: "the microphone back on") { $0 == .mute(false, call: nil) }
        }
    }

    /// What `Doors.dtmfSeconds` says for the panel: digits × (length + 40 ms) per round + 0.5 s.
    static func dtmfSeconds(_ panel: PanelConfig) -> Double {
        let timing = panel.dtmfTiming
        let rounds = Double(max(1, timing.repeat))
        return rounds * Double(panel.dtmfMain.count) * Double(timing.durationMs + 40) / 1000
            + (rounds - 1) * Double(timing.gapMs) / 1000 + 0.5
    }

    // MARK: - Guest mode

    /// Guest mode answers, but the door waits for the call to be confirmed (the caller's ACK and
    /// media): a blind or forged INVITE never opens it. Confirmed, it opens and hangs up.
    @Test func guestModeWaitsForAConfirmedCallThenOpensAndHangsUp() async throws {
        try await EngineRig.run(panels: [Self.entrance { $0.guestUntil = ManualClock.epoch.addingTimeInterval(3600) }]) { rig throws in
            rig.phone.answerOutcome = .establishedOnly
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            #expect(try await rig.answered(id) == .guestMode)
            try await rig.clock.waitForSleeper(endingIn: .seconds(5))
            #expect(rig.panel("entrance").doorRequests.all.isEmpty, "the door opened before the call was confirmed")
            rig.phone.confirm(id)
            let opened = try await rig.doorOpened()
            #expect(opened.ok && opened.by == .guestMode && opened.door == "main")
            #expect(try await rig.ended(id) == .hangup)
            #expect(rig.panel("entrance").doorRequests.all == [.main])
        }
    }

    @Test func guestModeHangsUpAnUnconfirmedCallAfterFiveSecondsAndTheDoorStaysShut() async throws {
        try await EngineRig.run(panels: [Self.entrance { $0.guestUntil = ManualClock.epoch.addingTimeInterval(3600) }]) { rig throws in
            rig.phone.answerOutcome = .establishedOnly
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.answered(id)
            try await rig.clock.waitForSleeper(endingIn: .seconds(5))
            rig.clock.advance(by: .milliseconds(4999))
            #expect(!rig.phone.requests.all.contains(.hangup(id)))
            rig.clock.advance(by: .milliseconds(1))
            #expect(try await rig.ended(id) == .hangup)
            #expect(rig.panel("entrance").doorRequests.all.isEmpty)
            #expect(rig.doorEvents.isEmpty)
        }
    }

    /// With `open = dtmf` the guest's door code takes its time on the wire before the hang-up.
    @Test func guestModeByDTMFHangsUpOnceTheDigitsAreThrough() async throws {
        let panel = Self.entrance { $0.guestUntil = ManualClock.epoch.addingTimeInterval(3600); $0.open = .dtmf }
        try await EngineRig.run(panels: [panel]) { rig throws in
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            #expect(try await rig.doorOpened().method == "dtmf")
            let digitsTime = Duration.seconds(Self.dtmfSeconds(panel))
            try await rig.clock.waitForSleeper(endingIn: digitsTime)
            #expect(!rig.phone.requests.all.contains(.hangup(id)))
            rig.clock.advance(by: digitsTime)
            #expect(try await rig.ended(id) == .hangup)
        }
    }

    @Test func guestModeEndsAtItsTime() async throws {
        let until = ManualClock.epoch.addingTimeInterval(60)
        try await EngineRig.run(panels: [Self.entrance { $0.guestUntil = until }]) { rig throws in
            func guestMode() async -> Bool? {
                guard case .array(let panels) = await rig.intercom.status["panels"] else { return nil }
                return panels.first?["guest_mode"]?.boolValue
            }
            #expect(await guestMode() == true)
            rig.clock.advance(by: .seconds(60))
            #expect(await guestMode() == false)
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.incoming(id)
            await rig.settle()
            #expect(!rig.phone.requests.all.contains { if case .answer = $0 { true } else { false } })
            #expect(!rig.events.all.contains { $0.name == "call_answered" })
        }
    }

    // MARK: - Automatic openings

    /// Guest mode opens for the first call; a hook within `auto_open_interval` is refused (and
    /// the refusal reported with its trigger); a person is never limited; once the interval has
    /// passed on the clock, the hook may open again.
    @Test func automaticOpeningsAreLimitedPerPanelForExactlyTheInterval() async throws {
        let panel = Self.entrance { $0.guestUntil = ManualClock.epoch.addingTimeInterval(3600); $0.autoOpenInterval = 30 }
        try await EngineRig.run(panels: [panel]) { rig throws in
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            #expect(try await rig.doorOpened().by == .guestMode)
            #expect(try await rig.ended(id) == .hangup)
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.open(panel: "entrance", door: .main, by: .hook)) }
            let refused = try await rig.doorOpened(2)
            #expect(!refused.ok && refused.by == .hook && refused.error?.contains("auto_open_interval") == true, "\(refused)")
            _ = try await rig.intercom.execute(.open(panel: "entrance", door: .main, by: .ctl))
            rig.clock.advance(by: .milliseconds(29_999))
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.open(panel: "entrance", door: .main, by: .hook)) }
            rig.clock.advance(by: .milliseconds(1))
            _ = try await rig.intercom.execute(.open(panel: "entrance", door: .main, by: .hook))
            try await rig.doorOpened(5)
            #expect(rig.doorEvents.map(\.by) == [.guestMode, .hook, .ctl, .hook, .hook])
            #expect(rig.doorEvents.map(\.ok) == [true, false, true, false, true])
            #expect(rig.panel("entrance").doorRequests.all == [.main, .main, .main])
        }
    }

    /// A hook in a call that is never confirmed waits the confirmation wait, then is refused.
    @Test func aHookInAnUnconfirmedCallIsRefusedAfterTheWait() async throws {
        try await EngineRig.run(panels: [Self.entrance()]) { rig throws in
            rig.phone.answerOutcome = .establishedOnly
            let id = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.incoming(id)
            try await rig.intercom.execute(.answer(id))
            _ = try await rig.answered(id)
            let hook = Task { try await rig.intercom.execute(.open(panel: "entrance", door: .main, by: .hook)) }
            try await rig.clock.waitForSleeper(endingIn: .seconds(5))
            rig.clock.advance(by: .seconds(5))
            await #expect(throws: IntercomError.self) { try await hook.value }
            let refused = try await rig.doorOpened()
            #expect(!refused.ok && refused.method == "none" && refused.error?.contains("not confirmed") == true, "\(refused)")
            #expect(rig.panel("entrance").doorRequests.all.isEmpty)
        }
    }
}
