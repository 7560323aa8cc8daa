@testable import IntercomVideo
import IntercomImaging
import IntercomTestSupport
import Testing

/// FFmpeg ignores option names it does not know (renamed between versions: `stimeout` became
/// `timeout`), leaving them in the dictionary; this build's FFmpeg must know every one we set.
@Suite(.serialized)
struct FFmpegOptionsTests {
    @Test("FFmpeg recognises every RTSP option we set")
    func rtspOptionsRecognised() async throws {
        let server = try await RTSPTestServer.start()
        try await withCleanup({ await server.stop() }) {
            let left = try Self.openAndReadLeftovers(VideoSource(url: server.url()))
            #expect(left.isEmpty, "unrecognised: \(left)")
        }
    }

    /// Synchronous on purpose: the decoder must stay on the thread that made it.
    private static func openAndReadLeftovers(_ source: VideoSource) throws -> [String] {
        let decoder = StreamDecoder(source: source, size: PixelSize(width: 32, height: 32), interrupt: InterruptState())
        defer { decoder.close() }
        try decoder.open()
        return decoder.unrecognisedOptions
    }
}
