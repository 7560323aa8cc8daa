import Foundation
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

    @Test("FFmpeg recognises every HLS option we set, and plays an HLS stream within the whitelists")
    func hlsOptionsRecognised() async throws {
        let folder = try await HLSTestFolder.start()
        try await withCleanup({ await folder.stop() }) {
            let left = try Self.openAndReadLeftovers(VideoSource(url: folder.url("index.m3u8")))
            #expect(left.isEmpty, "unrecognised: \(left)")
        }
    }

    @Test("every network stream is held to the demuxers and decoders we play")
    func whitelistsAreSet() {
        for (url, formats) in [("rtsp://10.0.0.5/av0_0", "rtsp"), ("http://cams.example/cam1/index.m3u8", "hls,mpegts,mov")] {
            let options = Dictionary(FFmpegOptions.pairs(for: VideoSource(url: url)), uniquingKeysWith: { $1 })
            #expect(options["format_whitelist"] == formats)
            #expect(options["codec_whitelist"] == "h264,hevc,mjpeg,aac,pcm_alaw,pcm_mulaw")
        }
        #expect(FFmpegOptions.codecRefusal("h264") == nil && FFmpegOptions.codecRefusal("hevc") == nil)
        #expect(FFmpegOptions.codecRefusal("vp9") == "its video codec vp9 is not one played from the network (H.264, H.265, MJPEG)")
        #expect(FFmpegOptions.codecRefusal("h26") != nil, "a whole name, not a prefix")
    }

    /// An SDP file (FFmpeg's `sdp` demuxer would set up RTP to wherever it names) as the stream; the
    /// start of an AVI file as the stream and as an HLS playlist's segment (the HLS demuxer hands the
    /// whitelist on to its segments' demuxer; a segment named `.ts` that is not MPEG-TS FFmpeg's HLS
    /// refuses by itself, so the segment is named for what it is).
    @Test("a stream in a container not on the list is refused with a clear line, as a segment too")
    func otherContainerRefused() async throws {
        let sdp = "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=camera\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"
            + "m=video 5004 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\n"
        let avi = "RIFF\u{04}\u{01}\u{00}\u{00}AVI LIST\u{04}\u{00}\u{00}\u{00}hdrl"
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nseg0.avi\n#EXT-X-ENDLIST\n"
        let server = try RedirectingServer(["/cam1/live": .body(sdp), "/cam1/clip.avi": .body(avi),
                                            "/cam1/index.m3u8": .body(playlist), "/cam1/seg0.avi": .body(avi)])
        try await withCleanup({ server.stop() }) {
            for url in [server.url("/cam1/live"), server.url("/cam1/clip.avi"), server.url("/cam1/index.m3u8")] {
                let stream = VideoStream(source: VideoSource(url: url), size: PixelSize(width: 32, height: 24))
                let (error, _) = try await VideoTestHelpers.outcome(of: stream, within: .seconds(10))
                await stream.stop()
                guard let error = error as? VideoError, case .badData(_, let reason) = error else {
                    Issue.record("\(url): expected bad data, got \(String(describing: error))")
                    continue
                }
                #expect(reason == "its container is not one played from the network (RTSP, HLS with MPEG-TS or MP4 segments, MP4)",
                        "\(url): \(reason)")
                #expect(error.exitCode == 65 && !error.description.contains("\n"), "\(error)")
            }
        }
    }

    /// MPEG-TS, a container on the list, holding MPEG-2 video, a codec that is not.
    @Test("a stream whose video codec is not on the list is refused with a clear line")
    func otherCodecRefused() async throws {
        let directory = try TestDirectory(prefix: "intercom-codec")
        let segment = directory.path + "/mpeg2.ts"
        let made = try await Subprocess.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                                                       "testsrc2=size=64x48:rate=25", "-t", "1", "-c:v", "mpeg2video",
                                                       "-f", "mpegts", segment], logDirectory: directory.url, timeout: .seconds(60))
        guard made.status == 0, let bytes = FileManager.default.contents(atPath: segment) else {
            throw HarnessError("ffmpeg could not make an MPEG-2 test stream: \(made.stderr)")
        }
        let server = try RedirectingServer(["/cam1/live.ts": .bytes(Array(bytes))])
        try await withCleanup({ server.stop() }) {
            let stream = VideoStream(source: VideoSource(url: server.url("/cam1/live.ts")), size: PixelSize(width: 32, height: 24))
            let (error, _) = try await VideoTestHelpers.outcome(of: stream, within: .seconds(10))
            await stream.stop()
            guard let error = error as? VideoError, case .badData(_, let reason) = error else {
                Issue.record("expected bad data, got \(String(describing: error))")
                return
            }
            #expect(reason == "its video codec mpeg2video is not one played from the network (H.264, H.265, MJPEG)", "\(reason)")
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
