import Foundation
import IntercomImaging
import IntercomTestSupport
import IntercomVideo
import Testing

extension LiveVideoTests {
    /// `VideoStream` over HTTP: an operator camera's HLS recording and its one-frame preview.
    /// (Pacing by timestamp is not built yet: a recording decodes as fast as the CPU allows.)
    @Suite
    struct HLSStreamTests {
        let size = PixelSize(width: 96, height: 64)

        @Test("an HLS recording through its master playlist gives frames, then ends")
        func recording() async throws {
            let folder = try await HLSTestFolder.start()
            try await withCleanup({ await folder.stop() }) {
                let stream = VideoStream(source: VideoSource(url: folder.url("index.m3u8")), size: size)
                var pictures: [RGBImage] = []
                var failure: (any Error)?
                do {
                    for try await picture in stream.frames { pictures.append(picture) }
                } catch {
                    failure = error
                }
                #expect(!pictures.isEmpty)
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
