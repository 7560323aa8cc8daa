import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import IntercomPhoneTestSupport
import Testing

/// Doors open only for a panel's call: a stranger's call (`unknown_callers = accept`) gets no
/// door code and no fallback to another call or the only panel, whatever asked for the opening
/// (a key, a notification's button, ctl, MQTT, a hook: all the same `open` command). A named
/// panel still opens, in or outside a call.
@Suite(.removesTestFolders) struct StrangerDoorTests {
    static let panelURI = CallPolicyTests.panelURI
    static let panelAddress = CallPolicyTests.panelAddress
    static let strangerURI = "sip:visitor@203.0.113.9"
    static let strangerAddress = "203.0.113.9"
    static let accept = SIPSettings(unknownCallers: .accept)

    /// The only panel opens by DTMF: the door code must never reach the stranger's call.
    static let dtmfEntrance = CallPolicyTests.entrance { $0.open = .dtmf; $0.dtmfMain = "1"; $0.dtmfAlt = "2" }

    /// A call from `from` at `source`, answered by the resident.
    static func answeredCall(_ rig: EngineRig, from: String = strangerURI, source: String = strangerAddress) async throws -> CallID {
        let id = rig.phone.ring(from: from, source: source)
        _ = try await rig.incoming(id)
        try await rig.intercom.execute(.answer(id))
        _ = try await rig.answered(id)
        return id
    }

    @Test(arguments: [DoorTrigger.key, .notification, .ctl, .mqtt, .hook])
    func anAnsweredStrangersCallGetsNoDoorCode(by trigger: DoorTrigger) async throws {
        try await EngineRig.run(panels: [Self.dtmfEntrance], sip: Self.accept) { rig throws in
            let stranger = try await Self.answeredCall(rig)
            let refusal = IntercomError.notAPanelCall(stranger, caller: Self.strangerURI)
            await #expect(throws: refusal) { try await rig.intercom.execute(.open(panel: nil, door: .main, by: trigger)) }
            await #expect(throws: refusal) { try await rig.intercom.execute(.open(panel: nil, door: .alt, by: trigger)) }
            #expect(refusal.exitCode == 77)
            #expect(refusal.description.contains("intercom open NAME"), "the line says what to do: \(refusal)")
            #expect(!rig.phone.requests.all.contains { if case .dtmf = $0 { true } else { false } }, "\(rig.phone.requests.all)")
            #expect(rig.panel("entrance").doorRequests.all.isEmpty, "the only panel's door opened")
            #expect(rig.doorEvents.isEmpty, "nothing opened, nothing to report as a door")
        }
    }

    /// A stranger and the panel ring together; "Open door" on the stranger's ring (a face sends
    /// no name for it) must not answer the panel's call and open its door.
    @Test func aRingingStrangerDoesNotOpenThePanelsRingingCall() async throws {
        try await EngineRig.run(panels: [Self.dtmfEntrance], sip: Self.accept) { rig throws in
            let panelCall = rig.phone.ring(from: Self.panelURI, source: Self.panelAddress)
            _ = try await rig.incoming(panelCall)
            let stranger = rig.phone.ring(from: Self.strangerURI, source: Self.strangerAddress)
            _ = try await rig.incoming(stranger)
            await #expect(throws: IntercomError.notAPanelCall(stranger, caller: Self.strangerURI)) {
                try await rig.intercom.execute(.open(panel: nil, door: .main, by: .notification))
            }
            await rig.settle()
            #expect(rig.phone.requests.all.isEmpty, "something was asked of the phone: \(rig.phone.requests.all)")
            #expect(rig.panel("entrance").doorRequests.all.isEmpty)
            guard case .array(let calls) = await rig.intercom.status["calls"] else { Issue.record("no calls"); return }
            #expect(calls.map { $0["state"]?.stringValue } == ["ringing", "ringing"], "\(calls)")
        }
    }

    /// Naming the panel still opens it (over HTTP: its own call is not up) while a stranger
    /// talks; once the stranger is gone, an unnamed opening finds the only panel again.
    @Test func aNamedPanelStillOpensBesideAStrangersCall() async throws {
        try await EngineRig.run(panels: [Self.dtmfEntrance], sip: Self.accept) { rig throws in
            let stranger = try await Self.answeredCall(rig)
            let reply = try await rig.intercom.execute(.open(panel: "entrance", door: .main, by: .ctl))
            #expect(reply["panel"]?.stringValue == "entrance", "\(reply.encoded)")
            #expect(rig.panel("entrance").doorRequests.all == [.main])
            #expect(!rig.phone.requests.all.contains { if case .dtmf = $0 { true } else { false } }, "\(rig.phone.requests.all)")
            rig.phone.end(stranger)
            _ = try await rig.ended(stranger)
            try await rig.intercom.execute(.open(panel: nil, door: .alt, by: .ctl))
            #expect(rig.panel("entrance").doorRequests.all == [.main, .alt])
            #expect(try await rig.doorOpened(2).method == "http")
        }
    }

    /// A panel's own call opens as before when no stranger's call is held.
    @Test func aPanelsCallStillOpensUnnamed() async throws {
        try await EngineRig.run(panels: [Self.dtmfEntrance], sip: Self.accept) { rig throws in
            let id = try await Self.answeredCall(rig, from: Self.panelURI, source: Self.panelAddress)
            try await rig.intercom.execute(.open(panel: nil, door: .main, by: .key))
            #expect(try await rig.doorOpened().method == "dtmf")
            #expect(rig.phone.requests.all.contains(.dtmf(id, "1")))
        }
    }
}
