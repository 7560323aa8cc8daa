import Foundation
import IntercomImaging
import IntercomTestSupport
import IntercomVideo
import Testing

/// A ring's clip: the real RTSP server's H.264 and PCMA remuxed into Matroska without decoding,
/// read back by `ffprobe` and by `ClipFile` (the player's reader), which paces nothing itself but
/// hands out each picture's time.
@Suite(.serialized) struct StreamRecorderTests {
    @Test func streamIsRemuxedWithItsAudioAndReadBackWithTimes() async throws {
        let server = try await RTSPTestServer.start(fps: 15)
        let directory = try TestDirectory(prefix: "intercom-remux")
        try await withCleanup({ await server.stop() }) {
            let path = directory.path + "/ring.mkv"
            let recorder = StreamRecorder(source: VideoSource(url: server.url()), path: path)
            try await Task.sleep(for: .seconds(3))
            let outcome = await recorder.stop()
            #expect(outcome.error == nil && outcome.hasVideo && outcome.audioPackets > 0, "\(outcome)")
            let probe = try await MediaProbe.probe(path)
            #expect(probe.streams.map(\.codec).sorted() == ["h264", "pcm_alaw"], "\(probe)")
            #expect(abs((probe.duration ?? 0) - outcome.seconds) < 0.5, "\(probe) vs \(outcome)")

            let clip = try ClipFile(path: path)
            defer { clip.close() }
            #expect(clip.videoSize == PixelSize(width: 320, height: 240))
            var times: [Double] = []
            while let (image, seconds) = clip.nextFrame(size: PixelSize(width: 80, height: 60)) {
                #expect(image.width == 80 && image.height == 60)
                times.append(seconds)
            }
            // Every picture, in order, from the first key frame at 0 at about 15 a second.
            #expect(times.first == 0 && times == times.sorted(), "\(times)")
            #expect(Double(times.count) >= outcome.seconds * 15 * 0.8, "\(times.count) pictures in \(outcome.seconds) s")

            let wav = directory.path + "/ring.wav"
            #expect(try ClipAudio.extract(path, to: wav))
            let sound = try await MediaProbe.probe(wav)
            #expect(sound.streams.first?.codec == "pcm_s16le" && abs((sound.duration ?? 0) - outcome.seconds) < 0.6, "\(sound)")
        }
    }

    @Test func aStreamThatIsNotThereIsSaidAndLeavesNothingPlayable() async throws {
        let port = try FreePort.udpAndTCP()
        let directory = try TestDirectory(prefix: "intercom-remux")
        let recorder = StreamRecorder(source: VideoSource(url: "rtsp://127.0.0.1:\(port)/av0_0", openTimeout: .seconds(2)),
                                      path: directory.path + "/ring.mkv")
        let outcome = await recorder.finished()
        #expect(!outcome.hasVideo)
        guard case .unavailable = outcome.error else {
            Issue.record("expected unavailable, got \(String(describing: outcome.error))")
            return
        }
    }
}
