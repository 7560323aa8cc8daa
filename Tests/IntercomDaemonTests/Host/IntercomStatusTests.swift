import Foundation
import Testing
import IntercomBase
import IntercomCoreFakes

/// The `status`/`state` object typed both ways: what the engine writes reads back as the same
/// value and the same JSON, keys in the reference's order, each call's stage spelled once.
@Suite(.removesTestFolders) struct IntercomStatusTests {
    static let since = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func aStatusReadsBackAsItWasWritten() {
        let status = IntercomStatus(
            calls: [CallStatus(call: CallID("c1"), panel: "home", from: "sip:panel@127.0.0.1", state: .active, since: Self.since),
                    CallStatus(call: CallID("c2"), panel: nil, from: "sip:desk@127.0.0.1", state: .dialing, since: Self.since)],
            registration: .init(account: "sip:me@127.0.0.1", state: "failed", reason: "timeout"),
            panels: [.init(name: "home", calls: false, guestMode: true)], listen: ["udp 127.0.0.1:5060"],
            doors: [.object([("id", .string("home:main"))])], operators: [.init(name: "dom", unread: 3), .init(name: "dacha", unread: nil)],
            muted: true, speaker: false)
        let json = status.json
        #expect(IntercomStatus(json: json) == status)
        #expect(IntercomStatus(json: JSONValue.parse(json.encoded) ?? .null) == status)
        guard case .object(let fields) = json else { Issue.record("not an object"); return }
        #expect(fields.map(\.0) == ["calls", "registration", "panels", "listen", "doors", "operators", "muted", "speaker"])
        guard case .array(let calls)? = json["calls"], case .array(let operators)? = json["operators"] else {
            Issue.record("no calls or operators in \(json)")
            return
        }
        #expect(calls.first?["state"] == .string("active"))
        #expect(operators.last?["unread"] == .null)
    }

    @Test func theEnginesStatusReadsBackTyped() async throws {
        try await EngineRig.run(panels: [PanelConfig(name: "home", url: "http://127.0.0.1:1")]) { rig in
            let status = IntercomStatus(json: await rig.intercom.status)
            #expect(status.panels.map(\.name) == ["home"])
            #expect(status.calls.isEmpty && status.registration == nil && !status.muted)
        }
    }
}
