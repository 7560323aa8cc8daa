import Foundation
import Testing
import IntercomPhone
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase

/// A concierge room: desks registered at a real kamailio, which forks a call to every desk of the
/// account; and a desk passing the call on to a flat (blind and attended transfer).
@Suite(.serialized, .removesTestFolders) struct ConciergeDeskTests {
    /// Desk A answers; kamailio cancels desk B's branch with `Reason: SIP;cause=200`, and B's call
    /// ends `answered_elsewhere`, not `missed`.
    @Test func theOtherDeskSeesTheCallAnsweredElsewhere() async throws {
        try await withTwoRingingDesks { room in
            try await room.deskA.answer(room.atA.id, video: false)
            _ = try await room.callerEvents.wait("caller established") { $0.established(room.outgoing) }
            #expect(try await room.bEvents.wait("desk B's call ended") { $0.ended(room.atB.id) } == .answeredElsewhere,
                    "kamailio log:\n\(room.kamailio.log.suffix(3000))")
            try await room.caller.hangup(room.outgoing)
            #expect(try await room.aEvents.wait("desk A's call ended") { $0.ended(room.atA.id) } == .remoteHangup)
        }
    }

    /// A plain CANCEL (the caller gave up) is still a missed call at every desk.
    @Test func aCallerGivingUpIsMissedAtEveryDesk() async throws {
        try await withTwoRingingDesks { room in
            try await room.caller.hangup(room.outgoing)
            #expect(try await room.aEvents.wait("desk A's call ended") { $0.ended(room.atA.id) } == .missed)
            #expect(try await room.bEvents.wait("desk B's call ended") { $0.ended(room.atB.id) } == .missed)
        }
    }

    /// Two desks registered with one account at a kamailio, a caller calling the account, and the
    /// call ringing at both desks.
    struct RingingRoom {
        let kamailio: Kamailio
        let deskA: Phone, aEvents: EventRecorder<PhoneEvent>
        let deskB: Phone, bEvents: EventRecorder<PhoneEvent>
        let caller: Phone, callerEvents: EventRecorder<PhoneEvent>
        let outgoing: CallID
        let atA: CallInfo, atB: CallInfo
    }

    func withTwoRingingDesks(_ body: (RingingRoom) async throws -> Void) async throws {
        let kamailio = try Kamailio()
        try await kamailio.start()
        let account = SIPAccount(identity: "sip:desk@\(kamailio.hostPort)", proxy: kamailio.uri)
        let (deskA, aEvents) = try await PhoneTestSupport.phone("desk", video: .off, account: account)
        let (deskB, bEvents) = try await PhoneTestSupport.phone("desk", video: .off, account: account)
        let (caller, callerEvents) = try await PhoneTestSupport.phone("panel", video: .off)
        try await withCleanup({ await caller.stop(); await deskA.stop(); await deskB.stop(); await kamailio.stop() }) {
            _ = try await aEvents.wait("desk A registered") { $0.registered }
            _ = try await bEvents.wait("desk B registered") { $0.registered }
            let outgoing = try await caller.call("sip:desk@\(kamailio.hostPort)", video: false)
            let atA = try await aEvents.wait("ringing at desk A") { $0.incomingCall }
            let atB = try await bEvents.wait("ringing at desk B") { $0.incomingCall }
            try await body(RingingRoom(kamailio: kamailio, deskA: deskA, aEvents: aEvents, deskB: deskB, bEvents: bEvents,
                                       caller: caller, callerEvents: callerEvents, outgoing: outgoing, atA: atA, atB: atB))
        }
    }

    /// The desk answers the panel, then transfers it to a flat registered at kamailio: the panel
    /// calls the flat, the flat rings and hears the panel, and the desk's call ends `transferred`.
    @Test func aBlindTransferRingsTheFlatAndTheCallerIsHeardThere() async throws {
        let dir = try TestDirectory(prefix: "intercom-transfer")
        try WAVTone.write(to: dir.file("panel.wav"), frequency: 1000, seconds: 20)
        let kamailio = try Kamailio()
        try await kamailio.start()
        let (flat, flatEvents) = try await PhoneTestSupport.phone(
            "flat", audio: .files(play: nil, record: dir.file("flat.wav").path), video: .off, audioCodecs: ["PCMA"],
            account: SIPAccount(identity: "sip:flat12@\(kamailio.hostPort)", proxy: kamailio.uri))
        let (desk, deskEvents) = try await PhoneTestSupport.phone("desk", video: .off)
        let (panel, panelEvents) = try await PhoneTestSupport.phone(
            "panel", audio: .files(play: dir.file("panel.wav").path, record: nil), video: .off, audioCodecs: ["PCMA"])
        try await withCleanup({ await panel.stop(); await desk.stop(); await flat.stop(); await kamailio.stop() }) {
            _ = try await flatEvents.wait("flat registered") { $0.registered }
            let outgoing = try await panel.call(PhoneTestSupport.uri(of: desk, user: "desk"), video: false)
            let atDesk = try await deskEvents.wait("ringing at the desk") { $0.incomingCall }
            try await desk.answer(atDesk.id, video: false)
            _ = try await panelEvents.wait("panel established") { $0.established(outgoing) }
            _ = try await deskEvents.wait("desk established") { $0.established(atDesk.id) }

            let target = "sip:flat12@\(kamailio.hostPort)"
            try await desk.transfer(atDesk.id, to: target)
            let atFlat = try await flatEvents.wait("ringing at the flat", timeout: 15) { $0.incomingCall }
            #expect(atFlat.from.hasPrefix("sip:panel@"), "\(atFlat)")
            try await flat.answer(atFlat.id, video: false)
            _ = try await flatEvents.wait("flat established") { $0.established(atFlat.id) }
            let result = try await deskEvents.wait("transfer result") { event -> (Bool, String)? in
                if case .transferred(atDesk.id, let to, let ok, _) = event { (ok, to) } else { nil }
            }
            #expect(result.0 && result.1 == target)
            #expect(try await deskEvents.wait("desk's call ended") { $0.ended(atDesk.id) } == .transferred)

            try await Task.sleep(for: .seconds(2))
            try await flat.hangup(atFlat.id)
            _ = try await flatEvents.wait("flat ended") { $0.ended(atFlat.id) }
            let heard = try await AudioFlowTests.dominantFrequency(dir.file("flat.wav"))
            #expect(heard.map { abs($0 - 1000) <= 30 } == true, "the flat recorded \(heard.map { "\($0) Hz" } ?? "silence")")
        }
    }

    /// Attended transfer: the desk holds the panel, calls the flat, talks, then
    /// hands the panel over (REFER with Replaces): the panel calls the flat, whose phone takes that
    /// call in place of the consultation, and the flat hears the panel. The desk's calls both end.
    @Test func anAttendedTransferLeavesThePanelTalkingToTheFlat() async throws {
        let dir = try TestDirectory(prefix: "intercom-attended")
        try WAVTone.write(to: dir.file("panel.wav"), frequency: 1000, seconds: 30)
        // liblinphone 5.1 leaves the port out of its INVITE's To, and Refer-To is that To: the flat
        // must be reachable at the SIP port, so it gets a loopback address of its own (as a flat's
        // phone has its own host), not a random port on 127.0.0.1.
        let flatHost = try FreePort.loopbackHostWithFreePort(5060)
        let (flat, flatEvents) = try await PhoneTestSupport.phone(
            "flat", audio: .files(play: nil, record: dir.file("flat.wav").path), video: .off, audioCodecs: ["PCMA"],
            listen: [ListenAddress(transport: .udp, host: flatHost, port: 5060)])
        let (desk, deskEvents) = try await PhoneTestSupport.phone("desk", video: .off)
        let (panel, panelEvents) = try await PhoneTestSupport.phone(
            "panel", audio: .files(play: dir.file("panel.wav").path, record: nil), video: .off, audioCodecs: ["PCMA"])
        try await withCleanup({ await panel.stop(); await desk.stop(); await flat.stop() }) {
            let outgoing = try await panel.call(PhoneTestSupport.uri(of: desk, user: "desk"), video: false)
            let atDesk = try await deskEvents.wait("ringing at the desk") { $0.incomingCall }
            try await desk.answer(atDesk.id, video: false)
            _ = try await panelEvents.wait("panel established") { $0.established(outgoing) }
            _ = try await deskEvents.wait("desk established") { $0.established(atDesk.id) }

            // Hold the panel, consult the flat.
            try await desk.hold(atDesk.id, true)
            let consult = try await desk.call("sip:flat12@\(flatHost)", video: false)
            let atFlat = try await flatEvents.wait("the consultation rings at the flat", timeout: 15) { $0.incomingCall }
            #expect(atFlat.from.hasPrefix("sip:desk@"), "\(atFlat)")
            try await flat.answer(atFlat.id, video: false)
            _ = try await deskEvents.wait("consultation established") { $0.established(consult) }
            // Handing over before the panel is off hold, the way `ctl transfer --complete` does.
            try await desk.transfer(atDesk.id, toCallOf: consult)

            // The panel calls the flat with Replaces; the flat's liblinphone takes that call by
            // itself (it replaces one already answered) and ends the desk's consultation.
            let toFlat = try await panelEvents.wait("the panel calls the flat", timeout: 15) { event -> CallID? in
                if case .outgoing(let info) = event, info.id != outgoing { info.id } else { nil }
            }
            let fromPanel = try await flatEvents.wait("the panel's call at the flat", timeout: 15) { event -> CallInfo? in
                if case .incoming(let info) = event, info.id != atFlat.id { info } else { nil }
            }
            #expect(fromPanel.from.hasPrefix("sip:panel@"), "\(fromPanel)")
            _ = try await flatEvents.wait("the flat talks to the panel", timeout: 15) { $0.established(fromPanel.id) }
            _ = try await panelEvents.wait("the panel talks to the flat", timeout: 15) { $0.established(toFlat) }
            _ = try await flatEvents.wait("the flat's consultation replaced") { $0.ended(atFlat.id) }
            let result = try await deskEvents.wait("transfer result", timeout: 15) { event -> (Bool, String?)? in
                if case .transferred(atDesk.id, _, let ok, let detail) = event { (ok, detail) } else { nil }
            }
            #expect(result.0, "\(result)")
            #expect(try await deskEvents.wait("desk's call with the panel ended", timeout: 15) { $0.ended(atDesk.id) } == .transferred)
            _ = try await deskEvents.wait("the consultation ended", timeout: 15) { $0.ended(consult) }

            // Two seconds of the panel's tone at the flat.
            try await Task.sleep(for: .seconds(2))
            try await flat.hangup(fromPanel.id)
            _ = try await flatEvents.wait("flat ended") { $0.ended(fromPanel.id) }
            _ = try await panelEvents.wait("the panel's call to the flat ended") { $0.ended(toFlat) }
            let heard = try await AudioFlowTests.dominantFrequency(dir.file("flat.wav"))
            #expect(heard.map { abs($0 - 1000) <= 30 } == true, "the flat recorded \(heard.map { "\($0) Hz" } ?? "silence")")
        }
    }
}
