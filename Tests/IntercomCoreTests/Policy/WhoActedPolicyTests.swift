import Foundation
import IntercomBase
import IntercomDaemon
import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import IntercomPhoneTestSupport
import Testing

/// Who acted, carried through the engine on fakes and a manual clock: the face a command came from
/// (`execute(_:as:)`) is the `who` of the answer, the openings and the hang-up it causes, while
/// the engine's own policies name themselves whoever asked before.
@Suite(.removesTestFolders) struct WhoActedPolicyTests {
    static let kiosk = FaceIdentity(.screen, screen: 2, kind: "kiosk", user: "anna")
    static let ctl = FaceIdentity(.ctl, user: "root")

    /// A screen answers, `ctl` hangs up: each event names its own face; `by` keeps its value.
    @Test func theAnswerAndTheHangUpSayWhichFace() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(id)
            try await rig.intercom.execute(.answer(id), as: Self.kiosk)
            #expect(try await rig.who(.callAnswered, of: id) == Self.kiosk)
            #expect(try await rig.answered(id) == .user)
            try await rig.intercom.execute(.hangup(id), as: Self.ctl)
            #expect(try await rig.who(.callEnded, of: id) == Self.ctl)
            let answered = try #require(rig.events.all.first { $0.eventName == .callAnswered })
            #expect(answered.json["by"]?.stringValue == "user")
            #expect(answered.json["who"] == .object([("face", .string("screen")), ("screen", .integer(2)),
                                                     ("kind", .string("kiosk")), ("user", .string("anna"))]),
                    "\(answered.json.encoded)")
            // An attached screen reads it back from the line as it was.
            #expect(IntercomEvent(json: answered.json)?.who == Self.kiosk)
        }
    }

    /// Opening a ringing panel's door from the kiosk answers, opens and hangs up: all three say the kiosk.
    @Test func anOpeningOfARingingCallIsTheFacesThroughout() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance { $0.open = .http }]) { rig throws in
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(id)
            let opening = Task { try await rig.intercom.execute(.open(panel: "entrance", door: .main, by: .key), as: Self.kiosk) }
            let opened = try await rig.doorOpened()
            #expect(opened.ok && opened.by == .key)
            #expect(rig.events.all.first { $0.eventName == .doorOpened }?.who == Self.kiosk)
            #expect(try await rig.who(.callAnswered, of: id) == Self.kiosk)
            rig.clock.advance(by: .seconds(1))
            _ = try await opening.value
            #expect(try await rig.who(.callEnded, of: id) == Self.kiosk)
            let ended = try #require(rig.events.all.first { $0.eventName == .callEnded })
            #expect(ended.json["by"]?.stringValue == "screen", "by as the other acting events: \(ended.json.encoded)")
        }
    }

    /// Auto-answer and guest mode name themselves; the caller's hang-up names nobody.
    @Test func policiesNameThemselvesAndTheCallerNobody() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance { $0.guestUntil = ManualClock.epoch.addingTimeInterval(3600) }]) { rig throws in
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            #expect(try await rig.who(.callAnswered, of: id) == .guestMode)
            let opened = try await rig.doorOpened()
            #expect(opened.by == .guestMode)
            #expect(rig.events.all.first { $0.eventName == .doorOpened }?.who == .guestMode)
            #expect(try await rig.who(.callEnded, of: id) == .guestMode)
        }
        try await EngineRig.run(panels: [CallPolicyTests.entrance { $0.autoAnswer = .on }]) { rig throws in
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            #expect(try await rig.who(.callAnswered, of: id) == .auto)
            rig.phone.end(id)
            #expect(try await rig.who(.callEnded, of: id) == nil)
            let ended = try #require(rig.events.all.first { $0.eventName == .callEnded })
            #expect(ended.json["who"] == nil && ended.json["by"] == nil, "no face ended it: \(ended.json.encoded)")
        }
    }

    /// Guest mode hangs up a call that never proves it is the panel: that end is guest mode's too.
    @Test func guestModesHangUpOfAnUnconfirmedCallNamesGuestMode() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance { $0.guestUntil = ManualClock.epoch.addingTimeInterval(3600) }]) { rig throws in
            rig.phone.answerOutcome = .establishedOnly
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.answered(id)
            try await rig.clock.waitForSleeper(endingIn: .seconds(5))
            rig.clock.advance(by: .seconds(5))
            #expect(try await rig.who(.callEnded, of: id) == .guestMode)
            #expect(rig.doorEvents.isEmpty)
        }
    }

    /// A hook reads who acted in words (`INTERCOM_WHO`); an event nobody acted in leaves it unset,
    /// whatever the daemon's own environment held.
    @Test func aHookIsToldWhoActed() {
        let ref = IntercomEvent.CallRef(id: CallID("c1"), panel: "entrance", from: CallPolicyTests.panelURI)
        let base = ["INTERCOM_WHO": "stale", "PATH": "/usr/bin"]
        let answered = HookEnvironment.make(event: IntercomEvent(.callAnswered(ref, by: .user), who: Self.kiosk), snapshot: nil, base: base)
        #expect(answered["INTERCOM_WHO"] == "screen 2 (kiosk, anna)")
        let ended = HookEnvironment.make(event: IntercomEvent(.callEnded(ref, reason: .remoteHangup, durationSeconds: 1)), snapshot: nil, base: base)
        #expect(ended["INTERCOM_WHO"] == nil && ended["PATH"] == "/usr/bin")
    }

    /// How a face reads on another screen, and the user a uid names.
    @Test func theFacesInWords() {
        #expect(Self.kiosk.answeredText == "answered at screen 2 (kiosk, anna)")
        #expect(Self.ctl.answeredText == "answered with ctl (root)")
        #expect(FaceIdentity.guestMode.description == "guest mode")
        #expect(FaceIdentity.userName(uid: 0) == "root")
        #expect(FaceIdentity.userName(uid: 4_000_000_000) == "uid 4000000000", "a uid with no name is its number")
        #expect(FaceIdentity(json: .string("a phone")) == nil, "an operator's who is not a face")
    }
}
