import Foundation
import IntercomBase
import IntercomEngine
import IntercomEngineFakes
import IntercomPhone
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// Missed calls are a queue (issue 25): the journal lists those nobody has handled, marks one
/// handled with who did it, and the engine calls a missed panel back and marks it (`ctl handled`,
/// `ctl callback`). On a fake phone; the CLI and the socket through the real binary in
/// DaemonBusyCallTests.
@Suite(.removesTestFolders) struct MissedCallQueueTests {
    /// A journal with a missed call (row 1), an answered one (row 2) and a busy refusal (row 3).
    static func journal() throws -> (Journal, TestDirectory) {
        let directory = try TestDirectory(prefix: "intercom-missed-queue")
        let journal = try Journal(directory: directory.path)
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let missed = try journal.callStarted(panel: "entrance", call: CallID("c1"), caller: "sip:100001@10.0.0.5", at: at)
        try journal.callEnded(missed, outcome: "missed", duration: 0, at: at)
        let answered = try journal.callStarted(panel: "entrance", call: CallID("c2"), caller: "sip:100001@10.0.0.5", at: at)
        try journal.callAnswered(answered, by: "user")
        try journal.callEnded(answered, outcome: "hangup", duration: 5, at: at)
        let busy = try journal.callStarted(panel: "entrance", call: CallID("c3"), caller: "sip:100001@10.0.0.5", at: at)
        try journal.callEnded(busy, outcome: "busy", duration: 0, at: at)
        return (journal, directory)
    }

    @Test func theQueueIsTheMissedCallsNobodyHandled() throws {
        let (journal, directory) = try Self.journal()
        defer { withExtendedLifetime(directory) {} }
        #expect(try journal.entries(JournalQuery(unhandledOnly: true)).map(\.id) == [1, 3])
        let handled = try journal.markHandled(3, by: "alice", at: Date(timeIntervalSince1970: 1_800_000_100))
        #expect(handled.handledBy == "alice" && handled.handledAt == Date(timeIntervalSince1970: 1_800_000_100))
        #expect(handled.json.encoded.contains(#""handled_by":"alice""#), "\(handled.json.encoded)")
        #expect(handled.outcomeText == "missed (busy) — handled by alice")
        #expect(try journal.entries(JournalQuery(unhandledOnly: true)).map(\.id) == [1])
        // Handled again: the first handler stays.
        #expect(try journal.markHandled(3, by: "bob").handledBy == "alice")
        // Still a missed call in the log, now with who dealt with it.
        #expect(try journal.entries(JournalQuery(missedOnly: true)).map(\.id) == [1, 3])
    }

    @Test func onlyAMissedCallCanBeHandled() throws {
        let (journal, directory) = try Self.journal()
        defer { withExtendedLifetime(directory) {} }
        #expect(throws: JournalError.io("entry 2 is not a missed call; 'intercom log --unhandled' lists those")) {
            try journal.markHandled(2, by: "alice")
        }
        #expect(throws: JournalError.self) { try journal.markHandled(99, by: "alice") }
        #expect(throws: JournalError.self) { try journal.markHandled(1, by: "  ") }
        #expect(try journal.entry(1)?.handledBy == nil)
    }

    @Test func callBackDialsThePanelAndMarksTheEntry() async throws {
        let (journal, directory) = try Self.journal()
        defer { withExtendedLifetime(directory) {} }
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.callBack(entry: 1, by: "ctl (alice)")) }
            rig.intercom.useJournal(journal)
            let reply = try await rig.intercom.execute(.callBack(entry: 1, by: "ctl (alice)"))
            #expect(rig.phone.requests.all.contains { if case .call(let uri) = $0 { uri.contains("10.0.0.5") } else { false } },
                    "\(rig.phone.requests.all)")
            #expect(reply["panel"]?.stringValue == "entrance" && reply["call"]?.stringValue != nil, "\(reply.encoded)")
            #expect(try journal.entry(1)?.handledBy == "ctl (alice), called back")
            // An answered call is no missed call: nothing is dialled for it.
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.callBack(entry: 2, by: "ctl")) }
            let marked = try await rig.intercom.execute(.handled(entry: 3, by: "ctl (bob)"))
            #expect(marked["handled_by"]?.stringValue == "ctl (bob)", "\(marked.encoded)")
            #expect(try journal.entries(JournalQuery(unhandledOnly: true)).isEmpty)
        }
    }

    @Test func theSocketSpellsTheQueueCommands() throws {
        for command in [IntercomCommand.handled(entry: 42, by: "ctl (alice)"), .callBack(entry: 7, by: "ctl")] {
            let line = ControlRequest(id: .integer(1), action: .command(command)).json.encoded
            #expect(try ControlRequest.parse(line).get().action == .command(command), "\(line)")
        }
        #expect(try ControlRequest.parse(#"{"command":"handled","entry":3}"#).get().action == .command(.handled(entry: 3, by: "ctl")))
        for bad in [#"{"command":"handled"}"#, #"{"command":"callback","entry":"3"}"#, #"{"command":"handled","entry":3,"by":""}"#] {
            guard case .failure(let failure) = ControlRequest.parse(bad) else { Issue.record("accepted \(bad)"); continue }
            #expect(failure.message.contains("entry") || failure.message.contains("by"), "\(failure.message)")
        }
    }
}
