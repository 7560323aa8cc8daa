import Foundation
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomPhone

/// Two desks (two engines, each with its own journal) registered with one account at a real
/// kamailio, which forks every call to both; and a desk passing its call on to a flat.
@Suite(.serialized, .removesTestFolders) struct ConciergeDeskEngineTests {
    struct Desk {
        var intercom: Intercom
        var events: EventRecorder<IntercomEvent>
        var recorder: JournalRecorder
        var pump: Task<Void, Never>
        var directory: TestDirectory

        func stop() async {
            await intercom.stop()
            await pump.value
        }
    }

    static func desk(_ kamailio: Kamailio, directory entries: [String: String] = [:]) async throws -> Desk {
        var config = IntercomConfig(
            sip: SIPSettings(listen: [ListenAddress(transport: .udp, host: "127.0.0.1", port: 0)], unknownCallers: .accept,
                             account: SIPAccount(identity: "sip:desk@\(kamailio.hostPort)", proxy: kamailio.uri)),
            daemon: DaemonSettings(socketPath: "/tmp/unused.sock"))
        config.directory = entries
        var settings = PhoneSettings(config: config, environment: [:])
        let directory = try TestDirectory(prefix: "intercom-desk")
        settings.dataDirectory = directory.path + "/phone"
        try FileManager.default.createDirectory(atPath: settings.dataDirectory, withIntermediateDirectories: true)
        settings.audio = .files(play: nil, record: nil)
        settings.video = .off
        let intercom = Intercom(config: config, phoneSettings: settings, logger: .silent)
        let journal = try Journal(directory: directory.path + "/journal")
        let recorder = JournalRecorder(journal: journal, pictures: IntercomPictureSource(intercom), logger: .silent)
        let events = EventRecorder(intercom.bus.subscribe())
        let stream = intercom.bus.subscribe()
        let pump = Task { for await event in stream { await recorder.record(event) } }
        try await intercom.start()
        return Desk(intercom: intercom, events: events, recorder: recorder, pump: pump, directory: directory)
    }

    static func incoming(_ desk: Desk) async throws -> CallID {
        try await desk.events.wait("call_incoming") { e -> CallID? in if case .callIncoming(let c) = e.kind { c.id } else { nil } }
    }

    static func ended(_ desk: Desk, _ id: CallID) async throws -> CallEndReason {
        try await desk.events.wait("call_ended of \(id)") { e -> CallEndReason? in
            if case .callEnded(let c, let reason, _) = e.kind, c.id == id { reason } else { nil }
        }
    }

    static func registered(_ desk: Desk) async throws {
        _ = try await desk.events.wait("registered") { e -> Bool? in if case .registered = e.kind { true } else { nil } }
    }

    @Test func deskAAnswersAndDeskBJournalsNoMissedCall() async throws {
        let kamailio = try Kamailio()
        try await kamailio.start()
        let a = try await Self.desk(kamailio)
        let b = try await Self.desk(kamailio)
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel", video: .off)
        try await withCleanup({ await panel.stop(); await a.stop(); await b.stop(); await kamailio.stop() }) {
            try await Self.registered(a)
            try await Self.registered(b)
            let outgoing = try await panel.call("sip:desk@\(kamailio.hostPort)", video: false)
            let atA = try await Self.incoming(a)
            let atB = try await Self.incoming(b)
            try await a.intercom.execute(.answer(atA))
            _ = try await panelEvents.wait("panel established") { $0.established(outgoing) }
            #expect(try await Self.ended(b, atB) == .answeredElsewhere)
            let event = try #require(b.events.all.first { $0.eventName == .callEnded })
            #expect(event.json["reason"]?.stringValue == "answered_elsewhere", "\(event.json.encoded)")

            try await panel.hangup(outgoing)
            #expect(try await Self.ended(a, atA) == .remoteHangup)
            await TestPatience.eventually(within: .seconds(5)) {
                (try? b.recorder.journal.entries().contains { $0.call == atB.rawValue && $0.outcome != nil }) == true
            }
            await b.recorder.settle()
            let entry = try #require(try b.recorder.journal.entries().first { $0.call == atB.rawValue })
            #expect(entry.outcome == "answered_elsewhere" && !entry.missed, "\(entry)")
            #expect(entry.json["missed"] == .bool(false) && entry.json["outcome"]?.stringValue == "answered_elsewhere")
            #expect(entry.outcomeText == "answered at another desk")
            #expect(try b.recorder.journal.entries(JournalQuery(missedOnly: true)).isEmpty)
            let answered = try #require(try a.recorder.journal.entries().first { $0.call == atA.rawValue })
            #expect(answered.answeredBy == "user" && answered.outcome == "remote_hangup")
        }
    }

    @Test func aTransferToADirectoryNameRingsTheFlatAndIsJournaled() async throws {
        let kamailio = try Kamailio()
        try await kamailio.start()
        let flatURI = "sip:flat12@\(kamailio.hostPort)"
        let a = try await Self.desk(kamailio, directory: ["Flat12": flatURI])
        let (flat, flatEvents) = try await PhoneTestSupport.phone(
            "flat12", video: .off, account: SIPAccount(identity: flatURI, proxy: kamailio.uri))
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel", video: .off)
        try await withCleanup({ await panel.stop(); await flat.stop(); await a.stop(); await kamailio.stop() }) {
            try await Self.registered(a)
            _ = try await flatEvents.wait("flat registered") { $0.registered }
            let outgoing = try await panel.call("sip:desk@\(kamailio.hostPort)", video: false)
            let atA = try await Self.incoming(a)
            // Not answered yet: nothing to transfer.
            await #expect(throws: IntercomError.self) { try await a.intercom.execute(.transfer(nil, target: "flat12")) }
            try await a.intercom.execute(.answer(atA))
            _ = try await panelEvents.wait("panel established") { $0.established(outgoing) }
            _ = try await a.events.wait("call_answered") { e -> Bool? in if case .callAnswered = e.kind { true } else { nil } }
            await #expect(throws: IntercomError.self) { try await a.intercom.execute(.transfer(nil, target: "nobody")) }

            let reply = try await a.intercom.execute(.transfer(nil, target: "flat12"))
            #expect(reply["to"]?.stringValue == flatURI && reply["target"]?.stringValue == "Flat12", "\(reply.encoded)")
            let atFlat = try await flatEvents.wait("ringing at the flat", timeout: 15) { $0.incomingCall }
            #expect(atFlat.from.hasPrefix("sip:panel@"), "\(atFlat)")
            try await flat.answer(atFlat.id, video: false)
            let transferred = try await a.events.wait("call_transferred") { e -> IntercomEvent? in
                if case .callTransferred = e.kind { e } else { nil }
            }
            #expect(transferred.json["ok"] == .bool(true) && transferred.json["target"]?.stringValue == "Flat12",
                    "\(transferred.json.encoded)")
            #expect(try await Self.ended(a, atA) == .transferred)
            try await flat.hangup(atFlat.id)
            await TestPatience.eventually(within: .seconds(5)) {
                (try? a.recorder.journal.entries().contains { $0.call == atA.rawValue && $0.outcome != nil }) == true
            }
            await a.recorder.settle()
            let entry = try #require(try a.recorder.journal.entries().first { $0.call == atA.rawValue })
            #expect(entry.outcome == "transferred" && entry.transferredTo == "Flat12 <\(flatURI)>" && !entry.missed, "\(entry)")
            #expect(entry.json["transferred_to"]?.stringValue == "Flat12 <\(flatURI)>")
        }
    }

    /// Calls we place are journaled as outgoing; one nobody took is not a missed call.
    @Test func outgoingCallsAreJournaledAndNeverMissed() async throws {
        let directory = try TestDirectory(prefix: "intercom-outgoing")
        let journal = try Journal(directory: directory.path + "/journal")
        let recorder = JournalRecorder(journal: journal, pictures: NoPictures(), logger: .silent)
        let ref = IntercomEvent.CallRef(id: CallID("c7"), panel: "entrance", from: "sip:intercom@127.0.0.1")
        await recorder.record(IntercomEvent(.callOutgoing(ref, to: "sip:100001@192.0.2.5")))
        await recorder.record(IntercomEvent(.callEnded(ref, reason: .missed, durationSeconds: 0)))
        let entry = try #require(try journal.entries().first)
        #expect(entry.direction == "outgoing" && entry.caller == "sip:100001@192.0.2.5" && !entry.missed, "\(entry)")
        #expect(entry.json["direction"]?.stringValue == "outgoing")
        #expect(try journal.entries(JournalQuery(missedOnly: true)).isEmpty)
    }

    struct NoPictures: JournalPictureSource {
        func peepholeJPEG(call: CallID, panel: String?) -> Data? { nil }
        func videoJPEG(call: CallID) async -> Data? { nil }
    }
}
