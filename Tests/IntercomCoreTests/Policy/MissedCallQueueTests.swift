import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
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

    /// The call back `callBack` placed, once the engine announced it.
    static func dialled(_ rig: EngineRig) async throws -> CallID {
        try await rig.event("call_outgoing") { if case .callOutgoing(let call, _) = $0 { call.id } else { nil } }
    }

    /// A call back of `entry` that `outcome` ends: the call it placed, and the error it failed
    /// with (nil: it said ok).
    static func failedCallBack(_ rig: EngineRig, entry: Int64, by who: String,
                               _ outcome: (CallID) async throws -> Void) async throws -> (CallID, IntercomError?) {
        async let reply = rig.intercom.execute(.callBack(entry: entry, by: who))
        let call = try await dialled(rig)
        try await outcome(call)
        do {
            _ = try await reply
            return (call, nil)
        } catch let error as IntercomError {
            return (call, error)
        }
    }

    @Test func anAnsweredCallBackHandlesTheEntry() async throws {
        let (journal, directory) = try Self.journal()
        defer { withExtendedLifetime(directory) {} }
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.callBack(entry: 1, by: "ctl (alice)")) }
            rig.intercom.useJournal(journal)
            async let reply = rig.intercom.execute(.callBack(entry: 1, by: "ctl (alice)"))
            let call = try await Self.dialled(rig)
            // Ringing at the panel is nobody reached yet.
            #expect(try journal.entry(1)?.handledBy == nil)
            rig.phone.establish(call)
            let answered = try await reply
            #expect(rig.phone.requests.all.contains { if case .call(let uri) = $0 { uri.contains("10.0.0.5") } else { false } },
                    "\(rig.phone.requests.all)")
            #expect(answered["panel"]?.stringValue == "entrance" && answered["call"]?.stringValue == call.rawValue, "\(answered.encoded)")
            #expect(try journal.entry(1)?.handledBy == "ctl (alice), called back")
            // An answered call is no missed call: nothing is dialled for it.
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.callBack(entry: 2, by: "ctl")) }
            let marked = try await rig.intercom.execute(.handled(entry: 3, by: "ctl (bob)"))
            #expect(marked["handled_by"]?.stringValue == "ctl (bob)", "\(marked.encoded)")
            #expect(try journal.entries(JournalQuery(unhandledOnly: true)).isEmpty)
        }
    }

    /// Issue 38: a call back refused 486 Busy reached nobody: the entry stays in the queue with
    /// why, and the command fails with that reason and exit 69.
    @Test func aCallBackRefusedBusyLeavesTheEntryUnhandled() async throws {
        let (journal, directory) = try Self.journal()
        defer { withExtendedLifetime(directory) {} }
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            rig.intercom.useJournal(journal)
            let (_, error) = try await Self.failedCallBack(rig, entry: 1, by: "ctl (alice)") { call in
                rig.phone.end(call, reason: .declined, detail: "Busy Here")
            }
            #expect(error?.exitCode == 69)
            #expect(error?.description == "the call back of entry 1 to entrance reached nobody: refused (Busy Here); it stays in 'intercom log --unhandled'")
            let entry = try journal.entry(1)
            #expect(entry?.handledBy == nil && entry?.callBackFailed == "refused (Busy Here), by ctl (alice)", "\(String(describing: entry))")
            #expect(entry?.outcomeText == "missed — call back failed: refused (Busy Here), by ctl (alice)")
            #expect(entry?.json.encoded.contains(#""callback_failed":"refused (Busy Here), by ctl (alice)""#) == true)
            #expect(try journal.entries(JournalQuery(unhandledOnly: true)).map(\.id) == [1, 3])
        }
    }

    /// A call back nobody takes is hung up after the ring time and fails; the entry stays queued.
    @Test func anUnansweredCallBackIsHungUpAndFails() async throws {
        let (journal, directory) = try Self.journal()
        defer { withExtendedLifetime(directory) {} }
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            rig.intercom.useJournal(journal)
            let (call, error) = try await Self.failedCallBack(rig, entry: 3, by: "ctl (bob)") { _ in
                try await rig.clock.waitForSleeper(endingIn: .seconds(IntercomCommand.callBackRingSeconds))
                rig.clock.advance(by: .seconds(IntercomCommand.callBackRingSeconds))
            }
            #expect(error == .callFailed("the call back of entry 3 to entrance reached nobody: no answer within 30 s; it stays in 'intercom log --unhandled'"))
            #expect(rig.phone.requests.all.contains { if case .hangup(call) = $0 { true } else { false } }, "\(rig.phone.requests.all)")
            #expect(try journal.entry(3)?.callBackFailed == "no answer within 30 s, by ctl (bob)")
            #expect(try journal.entries(JournalQuery(unhandledOnly: true)).map(\.id) == [1, 3])
            // Handled by hand afterwards: the queue forgets it, the note stays in the entry.
            #expect(try journal.markHandled(3, by: "bob").outcomeText == "missed (busy) — handled by bob")
        }
    }

    /// A call back the phone would not even place reached nobody too: noted, and still queued.
    @Test func aCallBackThatCannotBePlacedIsNoted() async throws {
        let (journal, directory) = try Self.journal()
        defer { withExtendedLifetime(directory) {} }
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            rig.intercom.useJournal(journal)
            rig.phone.failNext("call", with: .badURI("sip:100001@10.0.0.5"))
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.callBack(entry: 1, by: "ctl (alice)")) }
            let entry = try journal.entry(1)
            #expect(entry?.handledBy == nil && entry?.callBackFailed?.hasSuffix(", by ctl (alice)") == true, "\(String(describing: entry))")
        }
    }

    @Test func theReasonOfAnUnansweredCallInWords() {
        #expect(MissedCalls.unanswered(.declined, detail: "Busy Here") == "refused (Busy Here)")
        #expect(MissedCalls.unanswered(.missed, detail: nil) == "no answer")
        #expect(MissedCalls.unanswered(.error, detail: "Request Timeout") == "the call failed (Request Timeout)")
        #expect(MissedCalls.unanswered(nil, detail: nil) == "the call failed")
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
