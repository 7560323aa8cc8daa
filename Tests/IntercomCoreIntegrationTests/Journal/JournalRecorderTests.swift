import Foundation
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomImaging
import IntercomPhone

/// The journal fed by a running core: the simulated panel's HTTP API gives the peephole frames,
/// a liblinphone phone rings as the panel.
@Suite(.removesTestFolders) struct JournalRecorderTests {
    /// The recorder on the core's events; `recorded` has each event once the recorder has written it,
    /// so a test waits for the journal's state instead of sleeping.
    static func record(_ s: IntercomPanelTests.Setup) throws
        -> (JournalRecorder, Task<Void, Never>, TestDirectory, recorded: EventRecorder<IntercomEvent>) {
        let directory = try TestDirectory(prefix: "intercom-journal")
        let journal = try Journal(directory: directory.path + "/journal")
        let recorder = JournalRecorder(journal: journal, pictures: IntercomPictureSource(s.intercom), logger: .silent,
                                       answerVideoWait: .milliseconds(200))
        let events = s.intercom.bus.subscribe()
        let (written, sink) = AsyncStream<IntercomEvent>.makeStream()
        let task = Task {
            for await event in events {
                await recorder.record(event)
                sink.yield(event)
            }
            sink.finish()
        }
        return (recorder, task, directory, EventRecorder(written))
    }

    static func recorded(_ recorded: EventRecorder<IntercomEvent>, _ name: EventName) async throws {
        _ = try await recorded.wait("\(name.rawValue) written") { e -> Bool? in e.eventName == name ? true : nil }
    }

    static func waitForEnd(_ s: IntercomPanelTests.Setup) async throws -> CallEndReason {
        try await s.events.wait("call_ended") { e -> CallEndReason? in if case .callEnded(_, let r, _) = e.kind { r } else { nil } }
    }

    static func isJPEG(_ path: String?) -> Bool {
        guard let path, let data = FileManager.default.contents(atPath: path) else { return false }
        return (try? JPEG.size(of: data)) != nil
    }

    @Test func answeredCallHasBothPictures() async throws {
        let s = try await IntercomPanelTests.setup(autoAnswer: .after(seconds: 0.6), fps: 5)
        try await withCleanup({ await s.stop() }) {
            let (recorder, task, directory, recorded) = try Self.record(s)
            defer { task.cancel(); withExtendedLifetime(directory) {} }
            let (outgoing, incoming) = try await s.ring()
            try await Self.recorded(recorded, .callAnswered)
            // The picture at answer is taken (the call's video, else the peephole's) before the hangup.
            await recorder.settle()
            try await s.panel.hangup(outgoing)
            _ = try await Self.waitForEnd(s)
            try await Self.recorded(recorded, .callEnded)
            await recorder.settle()
            let entry = try #require(try recorder.journal.entries().first { $0.call == incoming.id.rawValue })
            #expect(entry.kind == .call && entry.panel == "entrance" && entry.caller == incoming.from)
            #expect(entry.answeredBy == "auto" && entry.outcome == "remote_hangup" && !entry.missed)
            #expect((entry.durationSeconds ?? 0) > 0 && entry.ended != nil)
            #expect(Self.isJPEG(entry.firstPicture), "\(entry)")
            #expect(Self.isJPEG(entry.answerPicture), "\(entry)")
            #expect(entry.firstPicture?.hasPrefix(recorder.journal.picturesDirectory) == true)
            #expect(await recorder.latestPicture(call: incoming.id) == entry.answerPicture)
            // No temp files left behind by the atomic writes.
            let names = try FileManager.default.contentsOfDirectory(atPath: recorder.journal.picturesDirectory)
            #expect(names.allSatisfy { !$0.hasSuffix(".tmp") }, "\(names)")
        }
    }

    @Test func missedCallHasItsRingPictureAndDoorOpeningsAreKept() async throws {
        let s = try await IntercomPanelTests.setup(fps: 5)
        try await withCleanup({ await s.stop() }) {
            let (recorder, task, directory, recorded) = try Self.record(s)
            defer { task.cancel(); withExtendedLifetime(directory) {} }
            let (outgoing, incoming) = try await s.ring()
            _ = try await s.events.wait("peephole_frame") { e -> Bool? in if case .peepholeFrame = e.kind { true } else { nil } }
            try await s.panel.hangup(outgoing)
            _ = try await Self.waitForEnd(s)
            try await s.intercom.execute(.open(panel: "entrance", door: .alt))
            _ = try await s.door("http")
            try await Self.recorded(recorded, .doorOpened)
            await recorder.settle()
            let entries = try recorder.journal.entries()
            let call = try #require(entries.first { $0.call == incoming.id.rawValue })
            #expect(call.missed && call.answeredBy == nil && call.answerPicture == nil, "\(call)")
            #expect(Self.isJPEG(call.firstPicture), "\(call)")
            let door = try #require(entries.first { $0.kind == .door })
            #expect(door.detail == "alt" && door.method == "http" && door.ok == true)
            #expect(try recorder.journal.entries(JournalQuery(missedOnly: true)).map(\.id) == [call.id])
            #expect(try recorder.journal.entries(JournalQuery(panel: "elsewhere")).isEmpty)
        }
    }
}
