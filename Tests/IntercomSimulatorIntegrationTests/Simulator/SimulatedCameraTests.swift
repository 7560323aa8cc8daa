import Foundation
import IntercomImaging
@testable import IntercomSimulator
import IntercomTestSupport
import IntercomVideo
import IntercomPhoneTestSupport
import Testing

/// The simulated panel's camera over RTSP, played by the client's own `VideoStream` (FFmpeg) and
/// probed by `ffprobe`. Serialized: each stream costs an x264 encoder and a decoder on a shared machine.
@Suite(.serialized, .removesTestFolders) struct SimulatedCameraTests {
    let size = PixelSize(width: 160, height: 120)

    /// Runs `body` with a started camera server, stopped whatever happens. A failure says what the
    /// camera was doing then (clients, how many playing, pictures rendered): a stream that went silent
    /// with the camera rendering for a playing client is the server's fault, not the camera's.
    private func withCamera(auth: SimulatedPanelOptions.Auth = .digest, password: String = "s3cret",
                            _ body: (SimulatedPanelRTSPServer) async throws -> Void) async throws {
        let server = try SimulatedPanelRTSPServer.start(port: 0, user: "admin", password: password, auth: auth)
        try await withCleanup({ server.stop() }) {
            do {
                try await body(server)
            } catch {
                throw HarnessError("\(error) (the camera: \(server.feedSummary))")
            }
        }
    }

    /// `count` pictures from `url`, and when each came (from the stream's start).
    private func play(_ url: String, password: String = "s3cret", count: Int) async throws -> ([RGBImage], [Duration]) {
        let clock = ContinuousClock()
        let start = clock.now
        let stream = VideoStream(source: VideoSource(url: url, user: "admin", password: password), size: size)
        return try await withCleanup({ await stream.stop() }) {
            try await TestPatience.within(.seconds(30), "\(count) frames from \(url)") {
                var pictures: [RGBImage] = []
                var arrivals: [Duration] = []
                for try await picture in stream.frames {
                    arrivals.append(clock.now - start)
                    pictures.append(picture)
                    if pictures.count == count { break }
                }
                return (pictures, arrivals)
            }
        }
    }

    /// The first picture is measured against this run's own pace, not a wall-clock bound: the camera's
    /// x264 encoder and FFmpeg's decoder share the machine with everything else, so under load the first
    /// picture and every later one stretch alike, while a first picture that waited for something (a
    /// key frame that never came on connect, a probe that read seconds of stream) stands out at any load.
    @Test("the main stream's first picture comes within two of this run's seconds of pictures, and the scene moves")
    func firstFrameAndMotion() async throws {
        try await withCamera { server in
            let (all, arrivals) = try await play(server.url(.main), count: 50)
            // Pictures 26–50: 24 intervals, a second of the camera's 25 a second once the stream flows
            // (the first few can come in a burst behind FFmpeg's probe).
            let second = arrivals[49] - arrivals[25]
            #expect(arrivals[0] <= second * 2, "first picture after \(arrivals[0]); 24 later intervals took \(second)")
            let pictures = Array(all.prefix(25))
            #expect(pictures.allSatisfy { $0.width == size.width && $0.height == size.height })
            // The sun, the clock hand and the counter move every frame: consecutive pictures differ.
            let distinct = zip(pictures, pictures.dropFirst()).filter { $0.pixels != $1.pixels }.count
            #expect(distinct >= 20, "only \(distinct) of 24 consecutive pictures differ")
            #expect(server.framesRendered > 0)
            // The client hung up (TEARDOWN, then its socket closed): the camera stops feeding it.
            await TestPatience.eventually(within: .seconds(3)) { server.clientCount == 0 }
            #expect(server.clientCount == 0)
        }
    }

    /// A ratio in one window, not an absolute rate: the client gets the pictures the camera renders in
    /// the same 3 s (75 at its 25 a second on a quiet machine). On a loaded machine the camera's own
    /// thread falls behind too (it skips ahead rather than burst), and what is asked of the stream is to
    /// carry what the camera makes, neither dropping pictures nor repeating them.
    @Test("pictures come at the camera's 25 a second")
    func frameRate() async throws {
        try await withCamera { server in
            let stream = VideoStream(source: VideoSource(url: server.url(), user: "admin", password: "s3cret"), size: size)
            try await withCleanup({ await stream.stop() }) {
                let clock = ContinuousClock()
                var count = 0
                var firstAt: ContinuousClock.Instant?
                var renderedAtFirst = 0
                var rendered = 0
                for try await _ in stream.frames {
                    if firstAt == nil {
                        firstAt = clock.now
                        renderedAtFirst = server.framesRendered
                        continue
                    }
                    count += 1
                    if let firstAt, clock.now - firstAt >= .seconds(3) {
                        rendered = server.framesRendered - renderedAtFirst
                        break
                    }
                }
                let seconds = Double((clock.now - (firstAt ?? clock.now)) / .milliseconds(1)) / 1000
                print("camera: \(count) pictures of the \(rendered) rendered in \(String(format: "%.2f", seconds)) s")
                // At least a second's worth rendered, or the machine was too starved to measure anything.
                #expect(rendered >= 25, "the camera rendered \(rendered) pictures in \(seconds) s: too starved to measure")
                // The window's edges catch a few pictures in flight (encoded, not yet decoded) either way.
                let ratio = Double(count) / Double(max(rendered, 1))
                #expect(ratio >= 0.85 && ratio <= 1.15, "\(count) pictures came of the \(rendered) the camera rendered in \(seconds) s (the camera: \(server.feedSummary))")
            }
        }
    }

    @Test("Digest, Basic or both, as the panel's --auth says", arguments: [SimulatedPanelOptions.Auth.digest, .basic, .both])
    func authenticates(auth: SimulatedPanelOptions.Auth) async throws {
        // Characters that would split a URL if they were not encoded.
        let password = "p@ss:w/rd%?#"
        try await withCamera(auth: auth, password: password) { server in
            let (pictures, _) = try await play(server.url(), password: password, count: 2)
            #expect(pictures.count == 2)
        }
    }

    @Test("a wrong password is refused as VideoError.authRefused")
    func wrongPassword() async throws {
        try await withCamera { server in
            let stream = VideoStream(source: VideoSource(url: server.url(), user: "admin", password: "wrong"), size: size)
            let error = try await withCleanup({ await stream.stop() }) { () async throws -> (any Error)? in
                do {
                    for try await _ in stream.frames {}
                    return nil
                } catch {
                    return error
                }
            }
            #expect(error as? VideoError == .authRefused(stream: server.url()))
            #expect(server.clientCount == 0)
        }
    }

    @Test("the sub stream is 352×288, the main 640×480, both H.264 with a key frame every second and PCMA")
    func streamSizes() async throws {
        let ffprobe = try ExternalTool.path("ffprobe")
        let dir = try TestDirectory(prefix: "camera-probe")
        try await withCamera { server in
            for (profile, expected) in [(RTSPStreamProfile.main, "640x480"), (.sub, "352x288")] {
                let url = server.url(profile).replacingOccurrences(of: "rtsp://", with: "rtsp://admin:s3cret@")
                // Three seconds of packets: the key-frame flags show the interval.
                let result = try await Subprocess.run(ffprobe, [
                    "-v", "error", "-rtsp_transport", "tcp", "-select_streams", "v:0", "-read_intervals", "%+3",
                    "-show_entries", "stream=codec_name,width,height:packet=pts_time,flags", "-of", "csv=p=0", url,
                ], logDirectory: dir.url, timeout: .seconds(20))
                #expect(result.status == 0, "ffprobe \(profile.path): \(result.stderr)")
                let lines = result.stdout.split(separator: "\n").map(String.init)
                #expect(lines.contains("h264,\(expected.replacingOccurrences(of: "x", with: ","))"),
                        "\(profile.path): \(lines.prefix(3))")
                // Packet lines are "PTS,FLAGS", FLAGS starting with K on a key frame.
                let packets = lines.compactMap { line -> (time: Double, key: Bool)? in
                    let fields = line.split(separator: ",")
                    guard fields.count == 2, let time = Double(fields[0]) else { return nil }
                    return (time, fields[1].hasPrefix("K"))
                }
                let keys = packets.indices.filter { packets[$0].key }
                #expect(packets.count >= 45, "\(profile.path): \(packets.count) packets in 3 s")
                if keys.count >= 2 {
                    // 25 frames from key to key (a second at 25 fps). In time, measured against this run's own
                    // pace: appsrc stamps each frame when it is pushed, so on a loaded machine every interval
                    // stretches alike (1.54 s between keys was seen), and an absolute bound fails there.
                    #expect(keys[1] - keys[0] == 25, "\(profile.path): \(keys[1] - keys[0]) frames between key frames")
                    let gap = packets[keys[1]].time - packets[keys[0]].time
                    let pace = (packets[packets.count - 1].time - packets[0].time) / Double(packets.count - 1)
                    #expect(abs(gap / (25 * pace) - 1) < 0.25,
                            "\(profile.path): key frames \(gap) s apart, 25 frames at this run's pace take \(25 * pace) s")
                } else {
                    Issue.record("\(profile.path): \(keys.count) key frame(s) in 3 s")
                }
                // A panel's microphone track: G.711 A-law at 8 kHz (silence here).
                let tracks = try await Subprocess.run(ffprobe, [
                    "-v", "error", "-rtsp_transport", "tcp", "-show_entries", "stream=codec_name,sample_rate",
                    "-of", "csv=p=0", url,
                ], logDirectory: dir.url, timeout: .seconds(20))
                #expect(tracks.stdout.contains("pcm_alaw,8000"), "\(profile.path): \(tracks.stdout)\(tracks.stderr)")
            }
        }
    }

    @Test("rtsp_cgi?action=get answers the RTSP port, and says the switch is off without a server")
    func rtspCGI() {
        func answer(_ port: UInt16?) -> String {
            let core = SimulatorCore(options: SimulatedPanelOptions(rtspPort: port))
            guard case .text(200, let body) = core.route(cgi: "rtsp_cgi", query: { $0 == "action" ? "get" : nil }) else {
                return ""
            }
            return body
        }
        #expect(answer(47456) == "RtspSwitch=open\r\nRtspAuth=open\r\nRtspPort=47456\r\n")
        #expect(answer(nil).contains("RtspSwitch=close"))
    }

    @Test("a taken port is one clear error")
    func takenPort() async throws {
        try await withCamera { server in
            #expect {
                try SimulatedPanelRTSPServer.start(port: server.port, user: "admin", password: "x", auth: .digest)
            } throws: { error in
                guard case SimulatorError.cannotStartRTSP(let port, _) = error else { return false }
                return port == server.port && "\(error)".contains("127.0.0.1:\(server.port)")
            }
        }
    }
}
