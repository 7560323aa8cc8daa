import Foundation
import Testing
import IntercomBase
import IntercomPhone
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Two desk daemons (the real binary) registered with one account at kamailio, driven by
/// `intercom ctl`: desk B journals the call desk A answered as answered elsewhere, and desk A
/// transfers the call to a flat named in `[directory]`.
@Suite("daemon: concierge desks", .removesTestFolders) struct DaemonConciergeDeskTests {
    static func config(_ kamailio: Kamailio, flat: String) -> String {
        kamailio.deskSIPSection + """


        [directory]
        flat12 = \(flat)
        """
    }

    @Test("A answers (ctl), B ends answered_elsewhere and log --missed is empty; A transfers to flat12 (ctl), the flat rings, log keeps where it went")
    func twoDesksAnswerElsewhereAndTransfer() async throws {
        let kamailio = try Kamailio()
        try await kamailio.start()
        let flatURI = "sip:flat12@\(kamailio.hostPort)"
        let deskA = try DaemonProcess(config: Self.config(kamailio, flat: flatURI), name: "desk-a")
        let deskB = try DaemonProcess(config: Self.config(kamailio, flat: flatURI), name: "desk-b")
        let (flat, flatEvents) = try await PhoneTestSupport.phone(
            "flat12", video: .off, account: SIPAccount(identity: flatURI, proxy: kamailio.uri))
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel", video: .off)
        try await withCleanup({
            await panel.stop(); await flat.stop(); _ = await deskA.stop(); _ = await deskB.stop(); await kamailio.stop()
        }) {
            for desk in [deskA, deskB] {
                try await desk.waitUntilStarted()
                try await desk.waitForEvent("registered", timeout: .seconds(10))
            }
            _ = try await flatEvents.wait("flat registered") { $0.registered }

            let outgoing = try await panel.call("sip:desk@\(kamailio.hostPort)", video: false)
            let atA = try await deskA.waitForEvent("call_incoming")
            let atB = try await deskB.waitForEvent("call_incoming")
            let answer = try await deskA.run(["ctl", "answer"])
            #expect(answer.status == 0, "\(answer)")
            _ = try await panelEvents.wait("panel established") { $0.established(outgoing) }
            let endedB = try await deskB.waitForEvent("call_ended") { $0.string("call") == atB.string("call") }
            #expect(endedB.string("reason") == "answered_elsewhere", "\(endedB)")
            _ = try await deskA.waitForEvent("call_answered")

            let usage = try await deskA.run(["ctl", "transfer"])
            #expect(usage.status == 64 && usage.stderr.contains("transfer needs a target"), "\(usage)")
            let unknown = try await deskA.run(["ctl", "transfer", "flat99"])
            #expect(unknown.status != 0 && unknown.stderr.contains("no 'flat99' in [directory]"), "\(unknown)")
            let transfer = try await deskA.run(["ctl", "transfer", "flat12"])
            #expect(transfer.status == 0 && transfer.stdout.contains(flatURI), "\(transfer)")
            let atFlat = try await flatEvents.wait("ringing at the flat", timeout: 15) { $0.incomingCall }
            try await flat.answer(atFlat.id, video: false)
            let transferred = try await deskA.waitForEvent("call_transferred")
            #expect(transferred.fields["ok"] as? Bool == true && transferred.string("target") == "flat12"
                    && transferred.string("to") == flatURI, "\(transferred)")
            let endedA = try await deskA.waitForEvent("call_ended") { $0.string("call") == atA.string("call") }
            #expect(endedA.string("reason") == "transferred", "\(endedA)")
            try await flat.hangup(atFlat.id)

            let missedB = try await deskB.run(["log", "--json", "--missed"])
            #expect(missedB.status == 0 && missedB.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(missedB)")
            let logB = try await deskB.run(["log", "--json"])
            #expect(logB.stdout.contains(#""outcome":"answered_elsewhere""#) && logB.stdout.contains(#""missed":false"#), "\(logB)")
            let logA = try await deskA.run(["log", "--json"])
            #expect(logA.stdout.contains(#""transferred_to":"flat12 <\#(flatURI)>""#), "\(logA)")
            let table = try await deskB.run(["log"])
            #expect(table.stdout.contains("answered at another desk"), "\(table)")
        }
    }

    /// A panel that refuses the REFER itself (405), and one that takes it and NOTIFYs that its call
    /// to the flat failed 486 (sipfrag): the error says which.
    static let failedTransfers: [(name: String, scenario: String, error: String)] = [
        ("no-refer", BewardScenarios.panelCallRefusingTransfer(hangupAfter: .seconds(2)), "refused"),
        ("refer-486", BewardScenarios.panelCallWhoseTransferFails("486 Busy Here", hangupAfter: .seconds(2)), "busy (486 Busy Here)"),
    ]

    @Test("a panel that answers REFER with 405, or NOTIFYs 486: call_transferred ok false says why, the call stays with the desk until the panel hangs up",
          arguments: failedTransfers)
    func aFailedTransferKeepsTheCallAndSaysWhy(_ peer: (name: String, scenario: String, error: String)) async throws {
        let daemon = try DaemonProcess(config: DaemonProcess.autoAnsweringPanelConfig(extra: """
            [directory]
            flat12 = sip:flat12@127.0.0.1:9
            """), name: "desk-\(peer.name)")
        try await daemon.waitUntilStarted()
        let panel = try Sipp(scenario: peer.scenario, name: peer.name, remote: try daemon.hostPort(), service: "desk",
                             timeout: .seconds(20))
        try await withCleanup({ _ = await panel.stop(); _ = await daemon.stop() }) {
            let answered = try await daemon.waitForEvent("call_answered")
            let transfer = try await daemon.run(["ctl", "transfer", "flat12"])
            #expect(transfer.status == 0, "\(transfer)")
            let failed = try await daemon.waitForEvent("call_transferred")
            #expect(failed.fields["ok"] as? Bool == false && failed.string("error")?.hasPrefix(peer.error) == true, "\(failed)")
            #expect(!daemon.names.contains("call_ended"), "\(daemon.events)")
            let status = try await daemon.run(["ctl", "status"])
            #expect(status.stdout.contains(#""state": "active""#), "\(status)")
            let result = try await panel.finish(timeout: .seconds(20))
            #expect(result.succeeded, "\(result)\n\(daemon.log)")
            let ended = try await daemon.waitForEvent("call_ended") { $0.string("call") == answered.string("call") }
            #expect(ended.string("reason") == "remote_hangup", "\(ended)")
            // The journal keeps the failure: to whom and why (issue 25).
            let log = try await daemon.run(["log"])
            #expect(log.stdout.contains("transfer to flat12 <sip:flat12@127.0.0.1:9>") && log.stdout.contains("blind: FAILED: \(peer.error)"),
                    "\(log)")
        }
    }
}
