import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import Testing

/// Attended transfer on the fakes (issue 25): the panel's call goes on hold while the desk calls
/// the flat; once the flat answered, complete hands the panel over (REFER with Replaces), cancel
/// hangs up the consultation and takes the panel off hold. Every step is a `transfer_consult`
/// event; the consultation itself is never announced as a call. The real SIP exchange:
/// ConciergeDeskTests.anAttendedTransferLeavesThePanelTalkingToTheFlat.
@Suite struct AttendedTransferTests {
    static let flatURI = "sip:flat12@10.0.0.7"
    static let directory = ["Flat12": flatURI]

    /// The entrance rings and is answered; returns its call.
    static func answeredCall(_ rig: EngineRig) async throws -> CallID {
        let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
        _ = try await rig.incoming(id)
        try await rig.intercom.execute(.answer(id))
        _ = try await rig.answered(id)
        return id
    }

    /// Starts a consultation of `flat12` for `id`; returns the consultation's call.
    static func consult(_ rig: EngineRig, _ id: CallID) async throws -> CallID {
        let reply = try await rig.intercom.execute(.attendedTransfer(nil, step: .consult(target: "flat12")))
        let other = CallID(try #require(reply["consult_call"]?.stringValue, "\(reply.encoded)"))
        #expect(reply["call"]?.stringValue == id.rawValue && reply["target"]?.stringValue == "Flat12", "\(reply.encoded)")
        #expect(try await step(rig, .calling).consultCall == other)
        return other
    }

    /// A rig whose entrance call was answered and is consulting `flat12`: `body(rig, call, consultation)`.
    static func consulting(_ body: (EngineRig, CallID, CallID) async throws -> Void) async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()], directory: directory) { rig throws in
            let id = try await answeredCall(rig)
            try await body(rig, id, try await consult(rig, id))
        }
    }

    static func expectNoCalls(_ rig: EngineRig) async throws {
        let status = await rig.intercom.status
        #expect(status["calls"] == .array([]), "\(status.encoded)")
    }

    /// The first `transfer_consult` of `state`, waited for.
    @discardableResult
    static func step(_ rig: EngineRig, _ state: IntercomEvent.ConsultState)
        async throws -> (call: CallID, to: String, target: String?, consultCall: CallID?, error: String?) {
        try await rig.event("transfer_consult \(state)") {
            if case .transferConsult(let c, state, let to, let target, let other, let error) = $0 { (c.id, to, target, other, error) } else { nil }
        }
    }

    /// Events naming the consultation's call as a call of its own (there must be none while it consults).
    static func announced(_ rig: EngineRig, _ other: CallID) -> [String] {
        rig.events.all.filter { e in
            switch e.kind {
            case .callOutgoing(let c, _), .callAnswered(let c, _), .callEnded(let c, _, _): c.id == other
            default: false
            }
        }.map(\.name)
    }

    @Test func holdConsultCompleteHandsThePanelToTheFlat() async throws {
        try await Self.consulting { rig, id, other throws in
            #expect(rig.phone.requests.all.suffix(2) == [.hold(id, true), .call(Self.flatURI)], "\(rig.phone.requests.all)")
            // Not answered yet: nothing to hand over.
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.attendedTransfer(nil, step: .complete)) }

            rig.phone.establish(other, videoCodec: nil)
            #expect(try await Self.step(rig, .answered).consultCall == other)
            try await rig.intercom.execute(.attendedTransfer(nil, step: .complete))
            #expect(rig.phone.requests.all.last == .transferToCall(id, other))
            _ = try await Self.step(rig, .transferring)

            // The panel reports its call to the flat connected (liblinphone's resolved address, not
            // the directory's spelling), the flat drops the replaced consultation, our call ends.
            rig.phone.report(.transferred(id, target: "sip:flat12@10.0.0.7:5060", ok: true, detail: nil))
            let outcome = try await rig.event("call_transferred") {
                if case .callTransferred(let c, let to, let target, let ok, _) = $0, c.id == id { (to, target, ok) } else { nil }
            }
            #expect(outcome.0 == Self.flatURI && outcome.1 == "Flat12" && outcome.2, "\(outcome)")
            rig.phone.end(other)
            rig.phone.end(id, reason: .transferred)
            #expect(try await rig.ended(id) == .transferred)
            await rig.settle()
            #expect(Self.announced(rig, other).isEmpty, "\(rig.events.all.map(\.json.encoded))")
            #expect(!rig.events.all.contains { if case .transferConsult(_, .failed, _, _, _, _) = $0.kind { true } else { false } })
            try await Self.expectNoCalls(rig)
        }
    }

    @Test func cancelHangsUpTheConsultationAndResumesThePanel() async throws {
        try await Self.consulting { rig, id, other throws in
            // Esc while the flat still rings.
            let reply = try await rig.intercom.execute(.attendedTransfer(nil, step: .cancel))
            #expect(reply["consult_call"]?.stringValue == other.rawValue)
            #expect(rig.phone.requests.all.suffix(2) == [.hangup(other), .hold(id, false)], "\(rig.phone.requests.all)")
            _ = try await Self.step(rig, .cancelled)
            await rig.settle()
            #expect(Self.announced(rig, other).isEmpty, "\(rig.events.all.map(\.json.encoded))")
            // Back in the call with the panel, which can be consulted again.
            let status = await rig.intercom.status.encoded
            #expect(status.contains(id.rawValue) && !status.contains("\"\(other.rawValue)\""), "\(status)")
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.attendedTransfer(nil, step: .cancel)) }
            let again = try await rig.intercom.execute(.attendedTransfer(id, step: .consult(target: Self.flatURI)))
            #expect(again["target"] == .null && again["to"]?.stringValue == Self.flatURI, "\(again.encoded)")
        }
    }

    @Test func aTargetThatRefusesEndsTheConsultationWithItsReason() async throws {
        try await Self.consulting { rig, id, other throws in
            rig.phone.end(other, reason: .declined, detail: "Busy Here")
            let failed = try await Self.step(rig, .failed)
            #expect(failed.error == "busy (Busy Here)" && failed.call == id, "\(failed)")
            #expect(rig.phone.requests.all.last == .hold(id, false), "\(rig.phone.requests.all)")
            await rig.settle()
            #expect(Self.announced(rig, other).isEmpty)
            let json = try #require(rig.events.all.first { $0.name == "transfer_consult" && $0.json["state"]?.stringValue == "failed" }).json
            #expect(json["error"]?.stringValue == "busy (Busy Here)" && json["target"]?.stringValue == "Flat12"
                    && json["to"]?.stringValue == Self.flatURI && json["call"]?.stringValue == id.rawValue, "\(json.encoded)")
            #expect(CallTransfer.consultEnd(.missed, detail: nil, who: "Flat12") == "timeout: nobody answered")
            #expect(CallTransfer.consultEnd(.declined, detail: "Call declined", who: "Flat12") == "refused (Call declined)")
        }
    }

    @Test func thePanelHangingUpLeavesTheAnsweredFlatAsAnOrdinaryCall() async throws {
        try await Self.consulting { rig, id, other throws in
            rig.phone.establish(other, videoCodec: nil)
            _ = try await Self.step(rig, .answered)
            rig.phone.end(id)
            #expect(try await Self.step(rig, .failed).error == "entrance hung up during the consultation")
            #expect(try await rig.ended(id) == .remoteHangup)
            // The desk still talks to the flat: now a call like any other, which it hangs up itself.
            #expect(try await rig.answered(other) == .remote)
            #expect(!rig.phone.requests.all.contains(.hangup(other)))
            try await rig.intercom.execute(.hangup(nil))
            #expect(try await rig.ended(other) == .hangup)
            #expect(Self.announced(rig, other) == ["call_outgoing", "call_answered", "call_ended"])
        }
    }

    @Test func hangingUpThePanelWhileTheFlatRingsEndsTheConsultation() async throws {
        try await Self.consulting { rig, id, other throws in
            // `h` at the desk, while the flat rings.
            try await rig.intercom.execute(.hangup(id))
            #expect(try await Self.step(rig, .failed).error == "entrance was hung up here during the consultation")
            _ = try await rig.ended(id)
            await rig.settle()
            #expect(rig.phone.requests.all.last == .hangup(other), "\(rig.phone.requests.all)")
            #expect(Self.announced(rig, other).isEmpty)
            try await Self.expectNoCalls(rig)
        }
    }

    @Test func aRefusedHandOverKeepsTheConsultationToRetryOrCancel() async throws {
        try await Self.consulting { rig, id, other throws in
            rig.phone.establish(other, videoCodec: nil)
            _ = try await Self.step(rig, .answered)
            try await rig.intercom.execute(.attendedTransfer(id, step: .complete))
            rig.phone.report(.transferred(id, target: Self.flatURI, ok: false, detail: "refused (603 Decline)"))
            let error = try await rig.event("call_transferred failed") {
                if case .callTransferred(let c, _, let target, false, let error) = $0, c.id == id, target == "Flat12" { error } else { nil }
            }
            #expect(error == "refused (603 Decline)")
            try await rig.intercom.execute(.attendedTransfer(nil, step: .cancel))
            _ = try await Self.step(rig, .cancelled)
            #expect(rig.phone.requests.all.suffix(2) == [.hangup(other), .hold(id, false)], "\(rig.phone.requests.all)")
        }
    }

    @Test func aConsultationNeedsAnAnsweredCallAndAKnownTarget() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()], directory: Self.directory) { rig throws in
            await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.attendedTransfer(nil, step: .consult(target: "flat12")))
            }
            let id = try await Self.answeredCall(rig)
            await #expect(throws: IntercomError.unknownTarget("no 'nobody' in [directory] (Flat12); give a name from it or a sip: URI")) {
                try await rig.intercom.execute(.attendedTransfer(id, step: .consult(target: "nobody")))
            }
            #expect(!rig.phone.requests.all.contains(.hold(id, true)))
            // liblinphone would drop the port from the hand-over: refused before the hold, in one line.
            await #expect(throws: IntercomError.unsupportedTarget(
                "no attended transfer to sip:flat12@10.0.0.7:5070: liblinphone leaves port 5070 out of the hand-over, "
                + "so the caller would call 10.0.0.7:5060; transfer blind instead (t, 'intercom ctl transfer sip:flat12@10.0.0.7:5070') "
                + "or reach the target on port 5060 (its SIP server)")) {
                try await rig.intercom.execute(.attendedTransfer(id, step: .consult(target: "sip:flat12@10.0.0.7:5070")))
            }
            #expect(!rig.phone.requests.all.contains(.hold(id, true)))
            _ = try await Self.consult(rig, id)
            await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.attendedTransfer(id, step: .consult(target: "flat12")))
            }
        }
    }
}

/// Every transfer's outcome is a journal entry of its own, a failed one with to whom and why;
/// `intercom log` lists it (issue 25: "a failed transfer is easy to miss").
@Suite struct TransferJournalTests {
    @Test func aFailedBlindTransferIsJournaledWithItsTargetAndReason() async throws {
        let (recorder, directory) = try JournalRecorderStateTests.recorder()
        defer { withExtendedLifetime(directory) {} }
        let c = JournalRecorderStateTests.call(1)
        await recorder.record(IntercomEvent(.callIncoming(c)))
        await recorder.record(IntercomEvent(.callAnswered(c, by: .user)))
        await recorder.record(IntercomEvent(.callTransferred(c, to: "sip:flat12@10.0.0.7", target: "Flat12", ok: false,
                                                             error: "busy (486 Busy Here)")))
        let entries = try recorder.journal.entries()
        let transfer = try #require(entries.first { $0.kind == .transfer }, "\(entries)")
        #expect(transfer.call == "c1" && transfer.panel == "entrance" && transfer.ok == false)
        #expect(transfer.subjectText == "transfer to Flat12 <sip:flat12@10.0.0.7>", "\(transfer)")
        #expect(transfer.outcomeText == "blind: FAILED: busy (486 Busy Here)", "\(transfer)")
        #expect(transfer.json["kind"]?.stringValue == "transfer" && transfer.json["mode"]?.stringValue == "blind"
                && transfer.json["error"]?.stringValue == "busy (486 Busy Here)", "\(transfer.json.encoded)")
        // The call itself was not passed on.
        #expect(entries.first { $0.kind == .call }?.transferredTo == nil)
        // `intercom log`'s table: LogTableTests.aFailedTransferShowsWhomAndWhy.
    }

    @Test func attendedTransfersAreJournaledCancelledFailedAndDone() async throws {
        let (recorder, directory) = try JournalRecorderStateTests.recorder()
        defer { withExtendedLifetime(directory) {} }
        let c = JournalRecorderStateTests.call(2)
        func consult(_ state: IntercomEvent.ConsultState, error: String? = nil) async {
            await recorder.record(IntercomEvent(.transferConsult(c, state: state, to: "sip:flat12@10.0.0.7", target: "Flat12",
                                                                 consultCall: CallID("c9"), error: error)))
        }
        await recorder.record(IntercomEvent(.callIncoming(c)))
        await recorder.record(IntercomEvent(.callAnswered(c, by: .user)))
        await consult(.calling)
        await consult(.cancelled)
        await consult(.calling)
        await consult(.failed, error: "timeout: nobody answered")
        await consult(.calling)
        await consult(.answered)
        await consult(.transferring)
        await recorder.record(IntercomEvent(.callTransferred(c, to: "sip:flat12@10.0.0.7", target: "Flat12", ok: true, error: nil)))
        await recorder.record(IntercomEvent(.callEnded(c, reason: .transferred, durationSeconds: 12)))
        let entries = try recorder.journal.entries()
        #expect(entries.filter { $0.kind == .transfer }.map(\.outcomeText) == [
            "attended: FAILED: cancelled at the desk", "attended: FAILED: timeout: nobody answered", "attended: done",
        ], "\(entries)")
        #expect(entries.first { $0.kind == .call }?.transferredTo == "Flat12 <sip:flat12@10.0.0.7>")
    }
}
