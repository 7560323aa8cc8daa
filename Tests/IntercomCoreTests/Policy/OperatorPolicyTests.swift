import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomImaging
import IntercomOperator
import IntercomPhone
import IntercomPhoneTestSupport
import Testing

/// Operator doors and calls on fakes: the doors listed beside the panels, opened through the
/// operator's API outside a call; a call from the operator's panel through the `[sip] account`
/// named as its door and opened by its DTMF digit (or the API); what a missing login says.
@Suite(.removesTestFolders) struct OperatorPolicyTests {
    static let home = OperatorConfig(name: "home", api: "https://operator.invalid/mobile", phone: "79123456781")
    /// The flat's account at the operator's registrar, 192.0.2.1.
    static let sip = SIPSettings(account: SIPAccount(identity: "sip:4000000001@192.0.2.1"))
    static let address = OperatorAddress(houseId: "1", address: "Main st 1", doors: [
        OperatorDoor(domophoneId: "1", doorId: 0, name: "Entrance"),
        OperatorDoor(domophoneId: "1", doorId: 1, name: "Gate"),
    ])

    /// The doors' ids as the `doors` command lists them (the rig has no panels: the operator's alone).
    static func doorIDs(_ rig: EngineRig) async throws -> [String] {
        guard case .array(let doors) = try await rig.intercom.execute(.doors) else { return [] }
        return doors.compactMap { $0["id"]?.stringValue }
    }

    static func rig(open: OperatorOpenMethod = .dtmf, loggedIn: Bool = true,
                    _ body: (EngineRig) async throws -> Void) async throws {
        var op = home
        op.open = open
        let api = FakeOperator()
        api.list("home", addresses: [address])
        try await EngineRig.run(sip: sip, operators: [op], loggedIn: loggedIn ? ["home"] : [], operatorAPI: api) { rig throws in
            // Beside the refresh at start, which may not have finished: both find the same doors.
            await rig.intercom.refreshOperatorDoors()
            try await body(rig)
        }
    }

    @Test func operatorDoorsAreListedAndOpenThroughTheAPI() async throws {
        try await Self.rig { rig throws in
            #expect(try await Self.doorIDs(rig) == ["home:1:0", "home:1:1"])
            let reply = try await rig.intercom.execute(.open(panel: "home:1:1", door: .main, by: .ctl))
            #expect(reply["operator"]?.stringValue == "home" && reply["door"]?.stringValue == "home:1:1")
            #expect(rig.operators.openings.all == ["home:1:1"])
            let opened = try await rig.doorOpened()
            #expect(opened.ok && opened.method == "operator" && opened.door == "home:1:1")
        }
    }

    @Test func withoutALoginTheErrorNamesLogin() async throws {
        try await Self.rig(loggedIn: false) { rig throws in
            #expect(try await Self.doorIDs(rig).isEmpty)
            let error = await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.open(panel: "home:1:0", door: .main, by: .ctl))
            }
            #expect(error?.description == "not logged in to home; run 'intercom login home'")
            #expect(error?.exitCode == 77)
            let opened = try await rig.doorOpened()
            #expect(!opened.ok && opened.method == "operator" && opened.error?.contains("intercom login home") == true)
            #expect(rig.operators.openings.all.isEmpty)
        }
    }

    @Test func aRevokedLoginNamesLoginAndAnUnreachableOperatorIsAnError() async throws {
        try await Self.rig { rig throws in
            rig.operators.fail("home", with: .loginExpired(status: 401))
            let revoked = await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.open(panel: "home:1:1", door: .main, by: .ctl))
            }
            #expect(revoked?.description.contains("run 'intercom login home'") == true, "\(String(describing: revoked))")
            #expect(revoked?.exitCode == 77)
            rig.operators.fail("home", with: .unreachable(detail: "connection refused"))
            let gone = await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.open(panel: "home:1:0", door: .main, by: .ctl))
            }
            #expect(gone?.exitCode == 69)
            // A failed refresh keeps the doors it had.
            await rig.intercom.refreshOperatorDoors()
            #expect(try await Self.doorIDs(rig) == ["home:1:0", "home:1:1"])
        }
    }

    /// `o` while the operator's panel rings: answered with the microphone off, the door's digit,
    /// hung up a second later (the digit's time on the wire), the microphone back on.
    @Test func aCallFromTheOperatorsPanelIsItsDoorAndOOpensItByDTMF() async throws {
        try await Self.rig { rig throws in
            let id = rig.phone.ring(from: "sip:100001@192.0.2.1", source: "192.0.2.1")
            #expect(try await rig.incoming(id).panel == "home:1:0")
            let opening = Task { try await rig.intercom.execute(.open(panel: "home:1:0", door: .main, by: .key)) }
            try await rig.clock.waitForSleeper(endingIn: .seconds(1))
            #expect(rig.phone.requests.all == [.mute(true, call: nil), .answer(id, recordTo: nil), .dtmf(id, "1")])
            rig.clock.advance(by: .milliseconds(999))
            #expect(!rig.phone.requests.all.contains(.hangup(id)))
            rig.clock.advance(by: .milliseconds(1))
            #expect(try await opening.value["door"]?.stringValue == "home:1:0")
            #expect(rig.phone.requests.all.suffix(2) == [.hangup(id), .mute(false, call: nil)])
            #expect(try await rig.doorOpened().method == "dtmf")
            #expect(rig.operators.openings.all.isEmpty)
        }
    }

    /// The operator call's digit goes the panel's open-before-answering way: an answer that fails
    /// leaves the call ringing and the microphone on again, as a failed opening in a panel's call does.
    @Test func aFailedAnswerInTheOperatorsCallPutsTheMicrophoneBackOn() async throws {
        try await Self.rig { rig throws in
            let id = rig.phone.ring(from: "sip:100001@192.0.2.1", source: "192.0.2.1")
            #expect(try await rig.incoming(id).panel == "home:1:0")
            rig.phone.failNext("answer", with: .wrongState(id, "ended"))
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.open(panel: "home:1:0", door: .main, by: .key)) }
            #expect(rig.phone.requests.all == [.mute(true, call: nil), .answer(id, recordTo: nil), .mute(false, call: nil)])
        }
    }

    /// With `open = api` the operator opens the door and the call rings on.
    @Test func withOpenAPIOInTheCallAsksTheOperator() async throws {
        try await Self.rig(open: .api) { rig throws in
            let id = rig.phone.ring(from: "sip:100001@192.0.2.1", source: "192.0.2.1")
            _ = try await rig.incoming(id)
            _ = try await rig.intercom.execute(.open(panel: nil, door: .main, by: .key))
            #expect(rig.operators.openings.all == ["home:1:0"])
            guard case .array(let calls) = await rig.intercom.status["calls"] else { Issue.record("no calls"); return }
            #expect(calls.first?["state"]?.stringValue == "ringing")
            #expect(rig.phone.requests.all.isEmpty)
        }
    }

    /// A hook may open an operator's door only in a confirmed call, once per 5 s.
    @Test func automaticOperatorOpeningsWaitForConfirmationAndAreRateLimited() async throws {
        try await Self.rig { rig throws in
            rig.phone.answerOutcome = .establishedOnly
            let id = rig.phone.ring(from: "sip:100001@192.0.2.1", source: "192.0.2.1")
            _ = try await rig.incoming(id)
            try await rig.intercom.execute(.answer(id))
            _ = try await rig.answered(id)
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.open(panel: nil, door: .main, by: .hook)) }
            rig.phone.confirm(id)
            await rig.settle()
            try await rig.intercom.execute(.open(panel: nil, door: .main, by: .hook))
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.open(panel: nil, door: .main, by: .hook)) }
            rig.clock.advance(by: .seconds(5))
            try await rig.intercom.execute(.open(panel: nil, door: .main, by: .hook))
            try await rig.doorOpened(4)
            #expect(rig.doorEvents.map(\.ok) == [false, true, false, true])
            #expect(rig.phone.requests.all.filter { if case .dtmf = $0 { true } else { false } } == [.dtmf(id, "1"), .dtmf(id, "1")])
        }
    }

    /// A call from a domophone no logged-in operator lists is a stranger (refused under reject),
    /// and the doors are asked for again.
    @Test func aCallFromAPanelNoOperatorListsIsAStranger() async throws {
        try await Self.rig { rig throws in
            if rig.operators.addressRequests.count < 2 {
                try await rig.operators.addressRequests.wait("the refresh at start") { $0.count >= 2 ? true : nil }
            }
            let before = rig.operators.addressRequests.count
            let id = rig.phone.ring(from: "sip:100042@192.0.2.1", source: "192.0.2.1")
            try await rig.phone.requests.wait(for: "the call refused") { $0 == .decline(id, .forbidden) }
            #expect(!rig.events.all.contains { $0.name == "call_incoming" })
            // The list was fetched just now: asked again only once it is a minute old on the clock.
            #expect(rig.operators.addressRequests.count == before)
            rig.clock.advance(by: .seconds(61))
            let again = rig.phone.ring(from: "sip:100042@192.0.2.1", source: "192.0.2.1")
            try await rig.phone.requests.wait(for: "the second call refused") { $0 == .decline(again, .forbidden) }
            try await rig.operators.addressRequests.wait("a refresh of the doors") { $0.count > before ? true : nil }
        }
    }

    /// `watch --at` from a window the camera's recording keeps nothing of (`cctv/ranges`) is one line saying
    /// where the recording resumes (exit 65); a window it resumes in plays (issue 42).
    @Test func aRecordingFromAGapSaysWhereItResumes() async throws {
        let camera = OperatorCamera(id: "7", name: "Entrance", url: "https://cam.invalid/cam7", token: "t0k")
        let kept = Date(timeIntervalSince1970: 1_800_000_000)
        try await Self.rig { rig throws in
            rig.operators.list("home", addresses: [Self.address], cameras: ["1": camera])
            rig.operators.ranges("home", camera: "7", OperatorArchiveRanges([.init(from: kept, to: kept.addingTimeInterval(600))]))
            do throws(IntercomError) {
                _ = try await rig.intercom.operatorCameraSource("home:cam:7", .archive(from: kept.addingTimeInterval(-7200), seconds: 3600))
                Issue.record("a window with no recording was played")
            } catch {
                #expect(error.exitCode == 65 && "\(error)".contains("the recording resumes at \(LocalTime(kept).dateAndClock)"), "\(error)")
            }
            let resumes = try await rig.intercom.operatorCameraSource("home:cam:7", .archive(from: kept.addingTimeInterval(-60), seconds: 3600))
            #expect(resumes.url.contains("/cam7/index-"), "\(resumes)")
        }
    }

    /// The entrance camera of an operator's panel plays while its call rings, once a screen asks.
    @Test func anOperatorCallShowsItsEntranceCameraWhileItRings() async throws {
        let camera = OperatorCamera(id: "7", name: "Entrance", url: "https://cam.invalid/cam7", token: "t0k")
        try await Self.rig { rig throws in
            rig.operators.list("home", addresses: [Self.address], cameras: ["1": camera])
            await rig.intercom.refreshOperatorDoors()
            let id = rig.phone.ring(from: "sip:100001@192.0.2.1", source: "192.0.2.1")
            _ = try await rig.incoming(id)
            rig.intercom.peephole.want(panel: "home:1:0", size: PixelSize(width: 160, height: 120))
            let stream = try await rig.video.stream(of: "https://cam.invalid/cam7/index.m3u8?token=t0k")
            stream.push()
            _ = try await rig.events.wait("the camera's frame") { _ in
                rig.intercom.peephole.latest(panel: "home:1:0").flatMap { $0.kind == .live ? $0 : nil } }
            #expect(rig.intercom.peephole.latest(panel: "home:1:0")?.call == id)
        }
    }
}
