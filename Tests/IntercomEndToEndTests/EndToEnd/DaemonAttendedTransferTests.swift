import Foundation
import Testing
import IntercomBase
import IntercomPhone
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Attended transfer through a real kamailio, driven by `intercom ctl` (issue 25): a panel calls the
/// desk daemon, the desk consults the flat with the panel on hold, and the flat refusing, the desk
/// going back to the panel and the hand-over (REFER with Replaces) each do what they say, in events
/// and in the journal, with the panel's tone heard at the flat at the end.
///
/// kamailio sits on 5060 of a loopback address of its own, as a building's SIP server does: liblinphone
/// 5.1 writes the consultation's To without the target's port and copies it into Refer-To, so the
/// panel calls the target at 5060 of its host (DECISIONS.md, "Attended transfer end to end").
@Suite("daemon: attended transfer", .removesTestFolders) struct DaemonAttendedTransferTests {
    @Test("ctl transfer --consult: the flat refuses (failed, off hold), --cancel goes back, --complete leaves the panel talking to the flat; all journaled")
    func consultRefusedCancelledThenCompleted() async throws {
        let dir = try TestDirectory(prefix: "intercom-attended-e2e")
        try WAVTone.write(to: dir.file("panel.wav"), frequency: 1000, seconds: 60)
        let kamailio = try Kamailio.onItsOwnAddress()
        try await kamailio.start()
        let flatURI = "sip:flat12@\(kamailio.host)"
        let desk = try DaemonProcess(config: DaemonConciergeDeskTests.config(kamailio, flat: flatURI), name: "desk-attended")
        let (flat, flatEvents) = try await PhoneTestSupport.phone(
            "flat12", audio: .files(play: nil, record: dir.file("flat.wav").path), video: .off, audioCodecs: ["PCMA"],
            account: SIPAccount(identity: flatURI, proxy: kamailio.uri))
        let (panel, panelEvents) = try await PhoneTestSupport.phone(
            "panel", audio: .files(play: dir.file("panel.wav").path, record: nil), video: .off, audioCodecs: ["PCMA"])
        try await withCleanup({ await panel.stop(); await flat.stop(); _ = await desk.stop(); await kamailio.stop() }) {
            try await desk.waitUntilStarted()
            try await desk.waitForEvent("registered", timeout: .seconds(10))
            _ = try await flatEvents.wait("flat registered") { $0.registered }
            let outgoing = try await panel.call("sip:desk@\(kamailio.host)", video: false)
            let incoming = try await desk.waitForEvent("call_incoming")
            let call = try #require(incoming.string("call"))
            let answer = try await desk.run(["ctl", "answer"])
            #expect(answer.status == 0, "\(answer)")
            _ = try await panelEvents.wait("panel established") { $0.established(outgoing) }
            _ = try await desk.waitForEvent("call_answered")
            var seenAtFlat: Set<CallID> = []
            func nextCallAtFlat(_ what: String) async throws -> CallInfo {
                let info = try await flatEvents.wait(what, timeout: 15) { event -> CallInfo? in
                    if case .incoming(let info) = event, !seenAtFlat.contains(info.id) { info } else { nil }
                }
                seenAtFlat.insert(info.id)
                return info
            }
            func consultStep(_ state: String, of consultCall: String) async throws -> DaemonEvent {
                try await desk.waitForEvent("transfer_consult", timeout: .seconds(15)) {
                    $0.string("state") == state && $0.string("consult_call") == consultCall
                }
            }
            func consult() async throws -> String {
                let reply = try await desk.run(["ctl", "transfer", "--consult", "flat12", "--json"])
                #expect(reply.status == 0 && reply.stdout.contains(flatURI), "\(reply)")
                let json = try JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Any]
                return try #require(json?["consult_call"] as? String, "\(reply)")
            }

            // 0. A target on another port than 5060: one line, and the panel is not put on hold.
            let odd = try await desk.run(["ctl", "transfer", "--consult", "sip:flat12@127.0.0.1:5070"])
            #expect(odd.status != 0 && odd.stderr.contains("no attended transfer to sip:flat12@127.0.0.1:5070: liblinphone leaves port 5070 out")
                    && odd.stderr.split(separator: "\n").count == 1, "\(odd)")
            #expect(!desk.names.contains("transfer_consult"), "\(desk.names)")

            // 1. The flat refuses: the step fails with the reason and the panel is off hold again.
            let refused = try await consult()
            let first = try await nextCallAtFlat("the first consultation rings at the flat")
            #expect(first.from.hasPrefix("sip:desk@"), "the desk calls the flat, not the panel: \(first)")
            try await flat.decline(first.id)
            let failed = try await consultStep("failed", of: refused)
            #expect(failed.string("call") == call && failed.string("error")?.hasPrefix("refused") == true, "\(failed)")
            let early = try await desk.run(["ctl", "transfer", "--complete"])
            #expect(early.status != 0 && early.stderr.contains("no consultation under way"), "\(early)")

            // 2. The flat answers, the desk goes back to the panel: the flat's call is hung up.
            let cancelled = try await consult()
            let second = try await nextCallAtFlat("the second consultation rings at the flat")
            try await flat.answer(second.id, video: false)
            _ = try await consultStep("answered", of: cancelled)
            let cancel = try await desk.run(["ctl", "transfer", "--cancel"])
            #expect(cancel.status == 0, "\(cancel)")
            _ = try await consultStep("cancelled", of: cancelled)
            _ = try await flatEvents.wait("the desk hangs the flat up", timeout: 15) { $0.ended(second.id) }

            // 3. The flat answers and the desk hands the panel over.
            let handed = try await consult()
            let third = try await nextCallAtFlat("the third consultation rings at the flat")
            try await flat.answer(third.id, video: false)
            _ = try await consultStep("answered", of: handed)
            let complete = try await desk.run(["ctl", "transfer", "--complete"])
            #expect(complete.status == 0, "\(complete)")
            _ = try await consultStep("transferring", of: handed)
            // The panel calls the flat with Replaces; the flat's phone takes it in place of the consultation.
            let fromPanel = try await nextCallAtFlat("the panel's call at the flat")
            #expect(fromPanel.from.hasPrefix("sip:panel@"), "\(fromPanel)\nkamailio:\n\(kamailio.log.suffix(3000))")
            _ = try await flatEvents.wait("the flat talks to the panel", timeout: 15) { $0.established(fromPanel.id) }
            _ = try await flatEvents.wait("the flat's consultation replaced", timeout: 15) { $0.ended(third.id) }
            let transferred = try await desk.waitForEvent("call_transferred", timeout: .seconds(15))
            #expect(transferred.fields["ok"] as? Bool == true && transferred.string("call") == call
                    && transferred.string("target") == "flat12" && transferred.string("to") == flatURI, "\(transferred)")
            let ended = try await desk.waitForEvent("call_ended", timeout: .seconds(15)) { $0.string("call") == call }
            #expect(ended.string("reason") == "transferred", "\(ended)")
            // The consultation was never announced as a call of its own.
            #expect(desk.events.filter { $0.name == "call_incoming" || $0.name == "call_outgoing" }.count == 1, "\(desk.names)")

            // Two seconds of the panel's tone at the flat.
            try await Task.sleep(for: .seconds(2))
            try await flat.hangup(fromPanel.id)
            _ = try await flatEvents.wait("flat ended") { $0.ended(fromPanel.id) }
            let heard = try await WAVTone.dominantFrequency(recording: dir.file("flat.wav"))
            #expect(heard.map { abs($0 - 1000) <= 30 } == true, "the flat recorded \(heard.map { "\($0) Hz" } ?? "silence")")

            // The journal: the refusal, the return and the hand-over, each a `transfer` entry of the call.
            let log = try await desk.run(["log", "--json"])
            let entries = log.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let transfers = entries.filter { $0["kind"] as? String == "transfer" && $0["call"] as? String == call }
            #expect(transfers.count == 3, "\(log.stdout)")
            #expect(transfers.allSatisfy { $0["mode"] as? String == "attended" }, "\(log.stdout)")
            #expect(transfers.contains { $0["ok"] as? Bool == true }, "\(log.stdout)")
            #expect(transfers.contains { ($0["error"] as? String)?.hasPrefix("refused") == true }, "\(log.stdout)")
            #expect(transfers.contains { $0["error"] as? String == "cancelled at the desk" }, "\(log.stdout)")
            #expect(log.stdout.contains(#""transferred_to":"flat12 <\#(flatURI)>""#), "\(log.stdout)")
        }
    }
}
