import Foundation
import IntercomBase
import IntercomImaging
import IntercomTestSupport
import IntercomVideo
import IntercomPhoneTestSupport
import Testing

/// `intercom simulate-panel`'s camera through the real binary: the announced stream plays with the
/// panel's user and password, `rtsp_cgi` names its port, `--no-rtsp` turns it off.
@Suite(.serialized, .removesTestFolders) struct SimulatePanelRTSPCommandTests {
    @Test("--rtsp-port 0: the announced streams play, and rtsp_cgi names the port")
    func announcedStreamPlays() async throws {
        let dir = try TestDirectory(prefix: "simulate-panel-rtsp")
        let process = try await SimulatorProcess.panel(["--events", "json", "--rtsp-port", "0", "--password", "s3cret"], in: dir)
        try await withCleanup({ await process.stop(grace: .seconds(10)) }) {
            let out = process.stdout
            let lines = out.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }
            let rtsp = try #require(lines.first { $0["event"]?.stringValue == "rtsp_listening" }, "stdout:\n\(out)")
            let url = try #require(rtsp["url"]?.stringValue)
            let sub = try #require(rtsp["sub_url"]?.stringValue)
            #expect(url.hasPrefix("rtsp://127.0.0.1:") && url.hasSuffix("/av0_0"), "\(url)")
            #expect(sub == String(url.dropLast("av0_0".count)) + "av0_1")
            #expect(!out.contains("s3cret"), "the password is printed:\n\(out)")

            for stream in [url, sub] {
                let video = VideoStream(source: VideoSource(url: stream, user: "admin", password: "s3cret"),
                                        size: PixelSize(width: 80, height: 60))
                let got = try await withCleanup({ await video.stop() }) { () async throws -> Int in
                    try await TestPatience.within(.seconds(10), "frames from \(stream)") {
                        var count = 0
                        for try await _ in video.frames {
                            count += 1
                            if count == 3 { break }
                        }
                        return count
                    }
                }
                #expect(got == 3, "\(stream)")
            }

            // The panel's own answer about its RTSP port, over its HTTP API (Digest).
            let http = try #require(lines.first { $0["event"]?.stringValue == "http_listening" }?["url"]?.stringValue)
            let port = String(url.dropFirst("rtsp://127.0.0.1:".count).prefix { $0.isNumber })
            let curl = try await Subprocess.run(try ExternalTool.path("curl"), [
                "-s", "--digest", "-u", "admin:s3cret", "\(http)/cgi-bin/rtsp_cgi?action=get",
            ], logDirectory: dir.url)
            #expect(curl.stdout.contains("RtspPort=\(port)\r\n"), "\(curl.stdout)")
        }
        #expect(process.exitStatus == 0, "\(process.log)")
    }

    @Test("--no-rtsp: no stream announced, and rtsp_cgi says the switch is off")
    func noRTSP() async throws {
        let dir = try TestDirectory(prefix: "simulate-panel-rtsp")
        let process = try await SimulatorProcess.panel(["--no-rtsp"], in: dir)
        try await withCleanup({ await process.stop(grace: .seconds(10)) }) {
            let out = process.stdout
            #expect(!out.contains("rtsp listening"), "\(out)")
            let http = try #require(out.split(separator: "\n").first { $0.hasPrefix("http listening on ") }?
                .split(separator: " ")[3])
            let curl = try await Subprocess.run(try ExternalTool.path("curl"), [
                "-s", "--digest", "-u", "admin:admin", "\(http)/cgi-bin/rtsp_cgi?action=get",
            ], logDirectory: dir.url)
            #expect(curl.stdout.contains("RtspSwitch=close"), "\(curl.stdout)")
        }
    }

    @Test("--rtsp-port with --no-rtsp, or a bad port, is a usage error")
    func usageErrors() async throws {
        let dir = try TestDirectory(prefix: "simulate-panel-rtsp")
        for arguments in [["--rtsp-port", "0", "--no-rtsp"], ["--rtsp-port", "rtsp"]] {
            let result = try await Subprocess.run(try IntercomBinary.path(), ["simulate-panel"] + arguments,
                                                  logDirectory: dir.url)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
    }

    @Test("a taken RTSP port exits 69 with one line")
    func takenPort() async throws {
        let listener = try LoopbackListener.open(backlog: 1)
        defer { close(listener.descriptor) }
        let dir = try TestDirectory(prefix: "simulate-panel-rtsp")
        let result = try await Subprocess.run(try IntercomBinary.path(), ["simulate-panel", "--rtsp-port", "\(listener.port)"],
                                              logDirectory: dir.url)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("--rtsp-port"), "\(result.stderr)")
    }
}
