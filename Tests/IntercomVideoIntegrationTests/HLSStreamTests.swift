import Foundation
import IntercomImaging
import IntercomTestSupport
import IntercomVideo
import Testing

extension LiveVideoTests {
    /// `VideoStream` over HTTP: an operator camera's HLS recording and its one-frame preview.
    /// A recording plays at its own pace (by timestamp), not as fast as the CPU decodes.
    @Suite
    struct HLSStreamTests {
        let size = PixelSize(width: 96, height: 64)

        @Test("an HLS recording through its master playlist plays at its own pace, then ends")
        func recording() async throws {
            let folder = try await HLSTestFolder.start()
            try await withCleanup({ await folder.stop() }) {
                let stream = VideoStream(source: VideoSource(url: folder.url("index.m3u8")), size: size)
                var pictures: [RGBImage] = []
                var failure: (any Error)?
                let clock = ContinuousClock()
                var first: ContinuousClock.Instant?
                do {
                    for try await picture in stream.frames {
                        if first == nil { first = clock.now }
                        pictures.append(picture)
                    }
                } catch {
                    failure = error
                }
                // 3 s at 25 fps: unpaced it goes by in ~0.1 s; paced, about 3 s (the first frame at 0).
                let played = first.map { clock.now - $0 } ?? .zero
                #expect(played > .milliseconds(2500) && played < .seconds(6), "played in \(played)")
                #expect(pictures.count > 60, "\(pictures.count) frames")
                #expect(pictures.allSatisfy { $0.width == 96 && $0.height == 64 })
                guard case .ended = failure as? VideoError else {
                    Issue.record("expected ended, got \(String(describing: failure))")
                    return
                }
                #expect(!String(describing: failure).contains("test-token"), "tokens stay out of messages")
            }
            #expect(try await VideoTestHelpers.decodeThreadsGone(within: .seconds(2)) == 0)
        }

        @Test("a one-frame preview gives its frame (the decoder is drained at the end)")
        func preview() async throws {
            let folder = try await HLSTestFolder.start()
            try await withCleanup({ await folder.stop() }) {
                let stream = VideoStream(source: VideoSource(url: folder.url("preview.mp4")), size: size)
                var pictures: [RGBImage] = []
                do {
                    for try await picture in stream.frames { pictures.append(picture) }
                } catch {}
                #expect(pictures.count == 1)
                #expect(pictures.first.map(VideoTestHelpers.hasDetail) == true)
            }
        }

        @Test("one picture at the file's own size (an operator camera's preview.mp4)")
        func picture() async throws {
            let folder = try await HLSTestFolder.start()
            try await withCleanup({ await folder.stop() }) {
                let picture = try await VideoPicture.first(from: VideoSource(url: folder.url("preview.mp4")))
                #expect(picture.width == 320 && picture.height == 240)
                #expect(VideoTestHelpers.hasDetail(picture))
                do {
                    _ = try await VideoPicture.first(from: VideoSource(url: folder.url("none.mp4")))
                    Issue.record("a missing preview gave a picture")
                } catch {
                    guard case .unavailable = error as? VideoError else { Issue.record("expected unavailable, got \(error)"); return }
                }
            }
            #expect(try await VideoTestHelpers.decodeThreadsGone(within: .seconds(2)) == 0)
        }

        @Test("a missing camera over HTTP gives unavailable")
        func missing() async throws {
            let folder = try await HLSTestFolder.start()
            try await withCleanup({ await folder.stop() }) {
                let stream = VideoStream(source: VideoSource(url: folder.url("nothing.m3u8")), size: size)
                let (error, _) = try await VideoTestHelpers.outcome(of: stream, within: .seconds(10))
                guard case .unavailable = error as? VideoError else {
                    Issue.record("expected unavailable, got \(String(describing: error))")
                    return
                }
            }
        }
    }
}
