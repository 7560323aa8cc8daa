import Foundation
import IntercomDaemon
import IntercomCore
@testable import IntercomSimulator
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomPhone

/// `[panel] record`: a real liblinphone call recorded by the phone, a ring recorded from a real
/// RTSP server, both read back by `ffprobe`, through the daemon's own event pipeline.
@Suite(.serialized, .removesTestFolders) struct JournalClipTests {
    struct Setup {
        var server: SimulatedPanelHTTPServer
        var intercom: Intercom
        var pipeline: EventPipeline
        var events: EventRecorder<IntercomEvent>
        var panel: Phone
        var directory: TestDirectory

        var journal: Journal { get throws { try Journal(directory: directory.path + "/journal", create: false) } }

        func stop() async {
            await panel.stop()
            await intercom.stop()
            await pipeline.finish()
            server.stop()
        }

        /// The call's entry once the journal has its outcome.
        func ended(_ call: CallID) async throws -> JournalEntry {
            var ended: JournalEntry?
            try await TestPatience.eventually(within: .seconds(10), every: .milliseconds(100)) {
                ended = try journal.entries().first(where: { $0.call == call.rawValue && $0.outcome != nil })
                return ended != nil
            }
            if let ended { return ended }
            throw HarnessError("call \(call) has no ended entry in the journal")
        }
    }

    static func setup(record: RecordMode, rtsp: String? = nil, autoAnswer: AutoAnswer = .off,
                      video: PhoneSettings.Video = .sendTestPattern) async throws -> Setup {
        let directory = try TestDirectory(prefix: "intercom-clips")
        let server = SimulatedPanelHTTPServer(options: SimulatedPanelOptions())
        _ = try server.start()
        var panelConfig = PanelConfig(name: "entrance", url: server.baseURL, user: "admin", password: "admin",
                                      match: [.uriPrefix("sip:panel@")], peepholeFPS: 2, autoAnswer: autoAnswer)
        panelConfig.rtsp = rtsp.map { .url($0) } ?? .off
        panelConfig.record = record
        let config = IntercomConfig(
            sip: SIPSettings(listen: [ListenAddress(transport: .udp, host: "127.0.0.1", port: 0)]),
            panels: [panelConfig], daemon: DaemonSettings(socketPath: directory.path + "/unused.sock"),
            journal: JournalSettings(path: directory.path + "/journal"))
        var settings = PhoneSettings(config: config, environment: [:])
        settings.dataDirectory = directory.path + "/sip"
        settings.audio = .files(play: PhoneTestSupport.callerSound, record: nil)
        let intercom = Intercom(config: config, phoneSettings: settings, logger: .silent)
        let events = EventRecorder(intercom.bus.subscribe())
        let pipeline = EventPipeline(intercom: intercom, config: config, environment: [:], logger: .silent)
        try await intercom.start()
        let (panel, _) = try await PhoneTestSupport.phone("panel", video: video, videoCodecs: ["H264"])
        return Setup(server: server, intercom: intercom, pipeline: pipeline, events: events, panel: panel,
                     directory: directory)
    }

    static func ring(_ s: Setup, video: Bool) async throws -> (CallID, CallID) {
        let port = await s.intercom.listening.first?.port ?? 0
        let outgoing = try await s.panel.call("sip:door@127.0.0.1:\(port)", video: video)
        let incoming = try await s.events.wait("call_incoming") { e -> CallID? in
            if case .callIncoming(let c) = e.kind { c.id } else { nil } }
        return (outgoing, incoming)
    }

    static func mode(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_mode & 0o777) : -1
    }

    @Test func answeredCallLeavesOneClipWithAudioAndVideoOfItsLength() async throws {
        let s = try await Self.setup(record: .calls, autoAnswer: .on)
        try await withCleanup({ await s.stop() }) {
            let (outgoing, incoming) = try await Self.ring(s, video: true)
            _ = try await s.events.wait("call_answered") { e -> Bool? in if case .callAnswered = e.kind { true } else { nil } }
            let answered = Date()
            try await Task.sleep(for: .seconds(4))
            try await s.panel.hangup(outgoing)
            _ = try await s.events.wait("call_ended") { e -> Bool? in if case .callEnded = e.kind { true } else { nil } }
            let length = Date().timeIntervalSince(answered)
            let entry = try await s.ended(incoming)
            let clip = try #require(entry.clip, "\(entry)")
            #expect(entry.ringClip == nil && entry.playableClip == clip)
            #expect(clip.hasPrefix(try s.journal.picturesDirectory + "/") && clip.hasSuffix(".mkv"))
            #expect(Self.mode(clip) == 0o600)
            let probe = try await MediaProbe.probe(clip)
            #expect(probe.hasAudio && probe.hasVideo, "\(probe)")
            #expect(abs((probe.duration ?? 0) - length) <= 1, "clip \(probe), call \(length) s")
            #expect(try s.journal.totalBytes() > Int64((try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int) ?? 0))
        }
    }

    @Test func missedRingLeavesAClipFromThePanelsStream() async throws {
        let rtsp = try await RTSPTestServer.start()
        try await withCleanup({ await rtsp.stop() }) {
            let s = try await Self.setup(record: .rings, rtsp: rtsp.url())
            try await withCleanup({ await s.stop() }) {
                let (outgoing, incoming) = try await Self.ring(s, video: false)
                try await Task.sleep(for: .seconds(3))
                try await s.panel.hangup(outgoing)
                let entry = try await s.ended(incoming)
                #expect(entry.missed && entry.clip == nil, "\(entry)")
                let clip = try #require(entry.ringClip, "\(entry)")
                #expect(entry.playableClip == clip && Self.mode(clip) == 0o600)
                let probe = try await MediaProbe.probe(clip)
                #expect(probe.hasVideo, "\(probe)")
                #expect((probe.duration ?? 0) >= 1.5 && (probe.duration ?? 0) <= 4, "\(probe)")
            }
        }
    }

    @Test func answeredRingKeepsBothTheRingClipAndTheCallRecording() async throws {
        let rtsp = try await RTSPTestServer.start()
        try await withCleanup({ await rtsp.stop() }) {
            let s = try await Self.setup(record: .rings, rtsp: rtsp.url(), autoAnswer: .after(seconds: 2.5))
            try await withCleanup({ await s.stop() }) {
                let (outgoing, incoming) = try await Self.ring(s, video: true)
                _ = try await s.events.wait("call_answered") { e -> Bool? in if case .callAnswered = e.kind { true } else { nil } }
                try await Task.sleep(for: .seconds(2))
                try await s.panel.hangup(outgoing)
                let entry = try await s.ended(incoming)
                let ring = try #require(entry.ringClip, "\(entry)")
                let call = try #require(entry.clip, "\(entry)")
                #expect(entry.playableClip == call)
                let ringProbe = try await MediaProbe.probe(ring)
                let callProbe = try await MediaProbe.probe(call)
                print("clips: ring \(ringProbe); call \(callProbe)")
                // The ring clip ends at the answer: the call recording takes over.
                #expect(ringProbe.hasVideo && (ringProbe.duration ?? 0) <= 3.5, "\(ringProbe)")
                #expect(callProbe.hasAudio && callProbe.hasVideo, "\(callProbe)")
            }
        }
    }

    @Test func ringWithoutAStreamKeepsItsPictureAndNoClip() async throws {
        let s = try await Self.setup(record: .rings, rtsp: nil)
        try await withCleanup({ await s.stop() }) {
            let (outgoing, incoming) = try await Self.ring(s, video: false)
            try await Task.sleep(for: .seconds(1))
            try await s.panel.hangup(outgoing)
            let entry = try await s.ended(incoming)
            #expect(entry.ringClip == nil && entry.clip == nil, "\(entry)")
            let names = try FileManager.default.contentsOfDirectory(atPath: try s.journal.picturesDirectory)
            #expect(!names.contains { $0.hasSuffix(".mkv") }, "\(names)")
        }
    }
}
