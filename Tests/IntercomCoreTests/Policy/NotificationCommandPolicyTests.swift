import Foundation
import IntercomBase
import IntercomDaemon
import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import IntercomPhoneTestSupport
import Testing

/// The desktop notification's buttons as the engine sees them: the key's commands, said to come
/// `by: notification` in the events (and so the journal). On fakes and a manual clock.
@Suite(.removesTestFolders) struct NotificationCommandPolicyTests {
    @Test func answerByNotificationSaysSo() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(id)
            try await rig.intercom.execute(.answer(id, by: .notification))
            #expect(try await rig.answered(id) == .notification)
        }
    }

    /// Open door on a ringing call opens as the key does (answered muted, opened, hung up), and both
    /// the answer and the opening say `notification`.
    @Test func openByNotificationOnARingingCall() async throws {
        let panel = CallPolicyTests.entrance { $0.open = .http }
        try await EngineRig.run(panels: [panel]) { rig throws in
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(id)
            let opening = Task { try await rig.intercom.execute(.open(panel: "entrance", door: .main, by: .notification)) }
            let opened = try await rig.doorOpened()
            #expect(opened.ok && opened.by == .notification && opened.method == "http", "\(opened)")
            #expect(try await rig.answered(id) == .notification)
            rig.clock.advance(by: .seconds(1))
            _ = try await opening.value
            #expect(rig.panel("entrance").doorRequests.all == [.main])
            #expect(rig.phone.requests.all.contains(.hangup(id)))
        }
    }

    /// A stranger's call (no panel, `unknown_callers = accept`) offers no "Open door": the engine
    /// refuses every opening for it, and a press of a button it never had opens nothing either.
    @Test func aStrangersCallOffersNoOpenDoor() {
        let stranger = IntercomEvent.CallRef(id: CallID("c1"), panel: nil, from: "sip:someone@192.0.2.7")
        #expect(DesktopNotifier.buttons(for: stranger).map(\.key) == ["answer", "decline"])
        #expect(DesktopNotifier.command("open", call: stranger) == nil)
        let panel = IntercomEvent.CallRef(id: CallID("c2"), panel: "entrance", from: CallPolicyTests.panelURI)
        #expect(DesktopNotifier.buttons(for: panel).map(\.key) == ["answer", "open", "decline"])
        #expect(DesktopNotifier.command("open", call: panel) == .open(panel: "entrance", door: .main, by: .notification))
    }

    /// The button's answer says the notification in `who`, as in `by`.
    @Test func theNotificationIsTheFaceThatAnswered() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(id)
            try await rig.intercom.execute(.answer(id, by: .notification), as: .notification)
            #expect(try await rig.who(.callAnswered, of: id) == .notification)
        }
    }

    /// A button opens a door: a signal is believed only from the server whose Notify reply named it
    /// (the real bus's forged press: DesktopNotificationTests).
    @Test func aNotificationSignalIsBelievedOnlyFromTheKnownServer() {
        #expect(DesktopNotifier.believed(sender: ":1.7", server: ":1.7"))
        #expect(!DesktopNotifier.believed(sender: ":1.9", server: ":1.7"), "another connection on the bus")
        #expect(!DesktopNotifier.believed(sender: ":1.7", server: nil), "a Notify reply without a sender: fail closed")
        #expect(!DesktopNotifier.believed(sender: nil, server: ":1.7"))
        #expect(!DesktopNotifier.believed(sender: nil, server: nil))
    }
}
