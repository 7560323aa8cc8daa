import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomPhone
import Testing

/// A call's transfers as their own state (`CallTransfer`): what the report of a blind or an
/// attended transfer names, when a hand-over may go, and where a target resolves. No phone:
/// the engine's side is in AttendedTransferTests and CallPolicyTests.
@Suite struct CallTransferTests {
    let flat = CallTransfer.Target(uri: "sip:flat12@10.0.0.7", name: "Flat12")

    @Test func aBlindTransfersReportNamesItsDirectoryEntry() {
        var transfer = CallTransfer()
        transfer.ask(flat)
        #expect(!transfer.isIdle)
        let report = transfer.reported(uri: flat.uri, ok: true)
        #expect(report.to == flat.uri && report.name == "Flat12" && transfer.isIdle)
        // The phone reports another address: named as it is, with no directory name.
        transfer.ask(flat)
        let other = transfer.reported(uri: "sip:other@10.0.0.8", ok: false)
        #expect(other.to == "sip:other@10.0.0.8" && other.name == nil && transfer.isIdle)
    }

    @Test func aRefusedReferLeavesNothingPendingUnlessAnotherTookItsPlace() {
        var transfer = CallTransfer()
        transfer.ask(flat)
        transfer.askFailed(flat)
        #expect(transfer.isIdle)
        transfer.ask(flat)
        transfer.askFailed(CallTransfer.Target(uri: "sip:gone@10.0.0.9"))
        #expect(transfer.pending == flat)
    }

    @Test func theHandOverWaitsForTheTargetsAnswerAndGoesOnce() throws {
        var transfer = CallTransfer()
        transfer.startConsulting(flat)
        #expect(throws: IntercomError.self) { try transfer.completable() }
        transfer.placed(CallID("o1"))
        let another = transfer.answered(CallID("o9"))
        #expect(!another, "another call's answer is not the consultation's")
        let first = transfer.answered(CallID("o1")), again = transfer.answered(CallID("o1"))
        #expect(first && !again, "answered once")
        #expect(try transfer.completable().call == CallID("o1"))
        transfer.completing(true)
        #expect(transfer.pending == flat)
        #expect(throws: IntercomError.notNow("the transfer to Flat12 is already on its way")) { try transfer.completable() }
        // The phone names the target by the address liblinphone resolved: the report keeps the consultation's.
        let refused = transfer.reported(uri: "sip:flat12@10.0.0.7:5060", ok: false)
        #expect(refused.to == flat.uri && refused.name == "Flat12")
        #expect(transfer.consult?.completing == false, "a refused hand-over leaves the consultation up")
        let ended = transfer.endConsultation()
        #expect(ended?.call == CallID("o1") && transfer.isIdle)
    }

    @Test func theCallerLeavingEndsTheConsultationAndSaysWhatBecomesOfTheTarget() {
        var transfer = CallTransfer()
        #expect(transfer.callerLeft(.remoteHangup, caller: "entrance") == nil, "no consultation, nothing to say")
        transfer.startConsulting(flat)
        transfer.placed(CallID("o1"))
        let ringing = transfer.callerLeft(.remoteHangup, caller: "entrance")
        #expect(ringing?.failure == "entrance hung up during the consultation" && ringing?.keepTalking == false && transfer.isIdle)
        transfer.startConsulting(flat)
        transfer.placed(CallID("o1"))
        _ = transfer.answered(CallID("o1"))
        let answered = transfer.callerLeft(.hangup, caller: "entrance")
        #expect(answered?.failure == "entrance was hung up here during the consultation" && answered?.keepTalking == true)
        transfer.startConsulting(flat)
        transfer.placed(CallID("o1"))
        _ = transfer.answered(CallID("o1"))
        transfer.completing(true)
        let handedOver = transfer.callerLeft(.transferred, caller: "entrance")
        #expect(handedOver?.failure == nil && handedOver?.keepTalking == false && transfer.consult == nil)
    }

    @Test func aTargetIsADirectoryNameOrASipURI() throws {
        var config = IntercomConfig(daemon: DaemonSettings(socketPath: "/tmp/unused.sock"))
        config.directory = ["Flat12": "sip:flat12@10.0.0.7"]
        #expect(try CallTransfer.target("flat12", config: config) == flat)
        #expect(try CallTransfer.target("sips:desk@10.0.0.2", config: config) == CallTransfer.Target(uri: "sips:desk@10.0.0.2"))
        #expect(throws: IntercomError.unknownTarget("no 'nobody' in [directory] (Flat12); give a name from it or a sip: URI")) {
            try CallTransfer.target("nobody", config: config)
        }
        #expect(throws: IntercomError.self) { try CallTransfer.checkHandOverReaches(CallTransfer.Target(uri: "sip:flat@10.0.0.7:5070")) }
        try CallTransfer.checkHandOverReaches(CallTransfer.Target(uri: "sips:flat@10.0.0.7:5061"))
    }
}
