import Foundation
import IntercomTestSupport
import IntercomBase
import IntercomSimulator
import IntercomPhoneTestSupport
import Testing

/// The simulated operator's cameras as Flussonic serves them: `cctv/all` hands out the run's token,
/// the live playlist plays (FFmpeg decodes frames from it), `preview.mp4` is a picture, a wrong token
/// is 403, and the recording reaches back as far as the kept segments.
@Suite(.serialized, .removesTestFolders) struct OperatorSimulatorCameraTests {
    @Test func theLivePlaylistPlaysWithTheTokenAndOnlyWithIt() async throws {
        try await withOperator { simulator, curl in
            let token = try await curl.login(simulator)
            let camera = try #require(try await curl.post("cctv/all", token: token).data?.firstItem)
            let url = try #require(camera["url"]?.stringValue)
            #expect(url == simulator.baseURL.replacingOccurrences(of: "/mobile", with: "/cctv/1"))
            let key = try #require(camera["token"]?.stringValue)
            #expect(key == simulator.cameraToken && key.count == 32)

            #expect(try await curl.get("\(url)/index.m3u8?token=wrong").status == 403)
            #expect(try await curl.get("\(url)/index.m3u8").status == 403)
            #expect(try await curl.get("\(url)/segment00000.ts?token=wrong").status == 403)
            #expect(try await curl.get("\(url)/preview.mp4").status == 403)

            let playlist = try await curl.get("\(url)/index.m3u8?token=\(key)")
            #expect(playlist.status == 200 && playlist.contentType == "application/vnd.apple.mpegurl", "\(playlist.text)")
            let segments = playlist.text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
            #expect(!segments.isEmpty && segments.allSatisfy { $0.hasSuffix(".ts?token=\(key)") }, "\(playlist.text)")

            // FFmpeg's HLS demuxer (as IntercomVideo plays it) decodes live frames.
            let played = try await Subprocess.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", "\(url)/index.m3u8?token=\(key)",
                                                             "-frames:v", "5", "-f", "null", "-"],
                                                  logDirectory: curl.directory.url, timeout: .seconds(30))
            #expect(played.status == 0, "\(played.stdout)\(played.stderr)")

            let preview = try await curl.get("\(url)/preview.mp4?token=\(key)")
            #expect(preview.status == 200 && preview.contentType == "video/mp4")
            let file = curl.directory.file("preview.mp4")
            try preview.body.write(to: file)
            let probed = try await Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries",
                                                              "stream=codec_name,width,height", "-of", "csv=p=0", file.path],
                                                  logDirectory: curl.directory.url, timeout: .seconds(20))
            #expect(probed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,640,480", "\(probed)")
            let frame = curl.directory.file("preview.png")
            let decoded = try await Subprocess.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", file.path,
                                                              "-frames:v", "1", frame.path],
                                                   logDirectory: curl.directory.url, timeout: .seconds(20))
            #expect(decoded.status == 0 && FileManager.default.fileExists(atPath: frame.path), "\(decoded)")

            // The recording reaches back as far as the kept segments: the last seconds play to their end.
            // On a loaded machine the camera may not have 3 s recorded yet (or its newest segment lags):
            // wait, with a deadline, until the moment 3 s ago has its preview, rather than assume it.
            var from = Int(Date().timeIntervalSince1970) - 3
            try await TestPatience.eventually(within: .seconds(20), every: .milliseconds(200)) {
                from = Int(Date().timeIntervalSince1970) - 3
                return try await curl.get("\(url)/\(from)-preview.mp4?token=\(key)").status == 200
            }
            let archive = try await curl.get("\(url)/index-\(from)-3600.m3u8?token=\(key)")
            #expect(archive.status == 200 && archive.text.contains("#EXT-X-ENDLIST")
                    && archive.text.contains(".ts?token=\(key)"), "\(archive.text)")
            let recorded = try await Subprocess.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i",
                                                               "\(url)/index-\(from)-3600.m3u8?token=\(key)", "-f", "null", "-"],
                                                    logDirectory: curl.directory.url, timeout: .seconds(30))
            #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
            let then = try await curl.get("\(url)/\(from)-preview.mp4?token=\(key)")
            #expect(then.status == 200 && then.contentType == "video/mp4")
            // Before the camera started nothing is kept; a window of no length is no file.
            #expect(try await curl.get("\(url)/index-1796032800-3600.m3u8?token=\(key)").status == 404)
            #expect(try await curl.get("\(url)/1000-preview.mp4?token=\(key)").status == 404)
            #expect(try await curl.get("\(url)/index-1000-0.m3u8?token=\(key)").status == 404)
            #expect(try await curl.get("\(url)/index-\(from)-3600.m3u8?token=wrong").status == 403)
            #expect(try await curl.get("\(url)/../mobile/index.m3u8?token=\(key)").status == 404)
            #expect(try await curl.get(url.replacingOccurrences(of: "/cctv/1", with: "/cctv/9") + "/index.m3u8?token=\(key)").status == 404)
        }
    }

    /// The intercom binary against the simulated operator, as `intercom demo` runs it: `snapshot`
    /// saves the camera's picture and `watch` in tmux draws it live and, with `--at`, its recording.
    @Test func intercomWatchAndSnapshotPlayTheCamera() async throws {
        try await withOperator { simulator, _ in
            let directory = try TestDirectory(prefix: "operator-camera-watch")
            let config = try IntercomBinary.writeConfig("""
                [operator home]
                api = \(simulator.baseURL)
                phone = \(simulator.options.testPhone)
                """, in: directory)
            func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
                try await Subprocess.run("/bin/bash", ["-c", "echo \(simulator.options.testCode) | \"$0\" \"$@\"",
                                                       try IntercomBinary.path()] + arguments + ["--config", config.path],
                                         environment: try IntercomBinary.environment(in: directory),
                                         logDirectory: directory.url, timeout: .seconds(30))
            }
            let login = try await run(["login", "home", "--sms"])
            #expect(login.status == 0, "\(login)")
            let file = directory.path + "/camera.jpg"
            let saved = try await run(["snapshot", "home:cam:1", "-o", file])
            #expect(saved.status == 0 && saved.stdout.contains("saved \(file) (640"), "\(saved)")
            #expect(!(saved.stdout + saved.stderr).contains(simulator.cameraToken), "the camera token is never printed")

            let watch = try await WatchScreen.start("home:cam:1", config: config, in: directory)
            try await withCleanup({ await watch.kill() }) {
                try await watch.waitFor("home:cam:1 · symbols · live")
                try await watch.quit()
            }
            // --at a few seconds ago: the kept segments since then, played to their end.
            let moment = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-2))
            let recording = try await WatchScreen.start("home:cam:1", config: config, in: directory, extra: "--at \(moment)")
            try await withCleanup({ await recording.kill() }) {
                try await recording.waitFor("home:cam:1 · symbols · live")
                try await recording.waitFor("the recording ended")
                try await recording.quit()
            }
        }
    }

    @Test func withoutCamerasTheURLsAnswer404AndTheTokenIsEmpty() async throws {
        try await withOperator(SimulatedOperatorOptions(cameras: false)) { simulator, curl in
            let token = try await curl.login(simulator)
            let camera = try #require(try await curl.post("cctv/all", token: token).data?.firstItem)
            #expect(camera["token"] == .string(""))
            let url = try #require(camera["url"]?.stringValue)
            #expect(try await curl.get("\(url)/index.m3u8").status == 404)
        }
    }
}

fileprivate extension JSONValue {
    var firstItem: JSONValue? { if case .array(let items) = self { items.first } else { nil } }
}
