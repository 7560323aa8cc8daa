import Foundation
@testable import IntercomPhone
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// liblinphone 5.1 keeps every finished call's log in memory and in `call-history.db` for the
/// core's life; ours drops each one once the call is released (issue 10: the daemon grew per call).
@Suite(.serialized, .removesTestFolders) struct CallLogRetentionTests {
    static func waitForNoLogs(_ phone: Phone) async throws -> Int {
        var held = 0
        try await TestPatience.eventually(within: .seconds(5), every: .milliseconds(50)) {
            held = try await phone.heldCallLogs()
            return held == 0
        }
        return held
    }

    @Test func endedCallsLeaveNoCallLogOnEitherSide() async throws {
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel")
        let (client, clientEvents) = try await PhoneTestSupport.phone("client")
        // Answered and hung up, declined, and cancelled while ringing: each ends its own way.
        for round in 0..<3 {
            let outgoing = try await panel.call(PhoneTestSupport.uri(of: client, user: "client"), video: false)
            let incoming = try await clientEvents.wait("incoming \(round)") { e -> CallInfo? in
                guard let info = e.incomingCall, !clientEvents.all.contains(where: { $0.ended(info.id) != nil }) else { return nil }
                return info
            }
            switch round {
            case 0:
                try await client.answer(incoming.id)
                _ = try await panelEvents.wait("established") { $0.established(outgoing) }
                try await client.hangup(incoming.id)
            case 1:
                try await client.decline(incoming.id)
            default:
                try await panel.hangup(outgoing)
            }
            _ = try await clientEvents.wait("client ended \(round)") { $0.ended(incoming.id) }
            _ = try await panelEvents.wait("panel ended \(round)") { $0.ended(outgoing) }
        }
        #expect(try await Self.waitForNoLogs(client) == 0)
        #expect(try await Self.waitForNoLogs(panel) == 0)
        await panel.stop()
        await client.stop()
    }
}
