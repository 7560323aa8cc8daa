import Foundation
import IntercomAttach
import IntercomBase
import IntercomDaemon
import IntercomCore
import Testing
import IntercomTestSupport

/// Who a control connection is, on the real socket with a liblinphone panel ringing (the setup of
/// `ControlSocketTests`): an attached screen acts as `screen N (KIND, USER)`, any other client as
/// `ctl (USER)`, the user read from the peer's credentials, never from the request.
@Suite(.removesTestFolders) struct ControlSocketWhoTests {
    @Test func anAttachedScreenAnswersAsItselfAndCtlHangsUpAsCtl() async throws {
        let s = try await ControlSocketTests.setup()
        try await withCleanup({ await s.stop() }) {
            let call = try await s.ring()
            let screen = try await ControlSocketTests.blocking { try RemoteLink(path: s.path, screen: "kiosk") }
            defer { screen.detach() }
            _ = try await screen.execute(.answer(call.id))
            let answered = try await s.events.wait("call_answered") { e -> IntercomEvent? in
                if case .callAnswered = e.kind { e } else { nil } }
            let user = FaceIdentity.ownUser
            let who = try #require(answered.who, "\(answered.json.encoded)")
            #expect(who.face == .screen && who.kind == "kiosk" && who.user == user && who.screen != nil, "\(who)")
            // The number is the one `status` lists the screen under.
            let status = try await ControlSocketTests.blocking {
                try ControlClient(path: s.path).request(ControlRequest(id: .integer(1), action: .command(.status)))
            }
            guard case .array(let screens)? = status["data"]?["screens"] else { Issue.record("\(status.encoded)"); return }
            #expect(screens.compactMap { $0["id"] } == [.integer(who.screen ?? -1)], "\(status.encoded)")
            #expect(screens.first?["user"] == .string(user) && screens.first?["name"] == .string("kiosk"), "\(status.encoded)")
            let hangup = try await ControlSocketTests.blocking {
                try ControlClient(path: s.path).request(ControlRequest(id: .integer(2), action: .command(.hangup(call.id))))
            }
            #expect(hangup["ok"] == .bool(true), "\(hangup.encoded)")
            let ended = try await s.events.wait("call_ended") { e -> IntercomEvent? in if case .callEnded = e.kind { e } else { nil } }
            #expect(ended.who == FaceIdentity(.ctl, user: user), "\(ended.json.encoded)")
        }
    }
}
