import Foundation

/// An operator camera's files as Flussonic serves them, on 127.0.0.1 over HTTP (python3's
/// http.server, which ignores `?token=`): `cam1/index.m3u8` (a master playlist naming
/// `tracks-v1/mono.m3u8`, a finished 3 s H.264 recording in 1 s segments) and `cam1/preview.mp4`
/// (one H.264 frame). The ffmpeg CLI writes them; a missing tool fails the test.
package final class HLSTestFolder: Sendable {
    package let port: UInt16
    private let server: Subprocess
    private let directory: TestDirectory

    private init(port: UInt16, server: Subprocess, directory: TestDirectory) {
        self.port = port
        self.server = server
        self.directory = directory
    }

    package static func start(width: Int = 320, height: Int = 240) async throws -> HLSTestFolder {
        let directory = try TestDirectory(prefix: "intercom-hls")
        let camera = directory.url.appendingPathComponent("cam1")
        try FileManager.default.createDirectory(at: camera.appendingPathComponent("tracks-v1"),
                                                withIntermediateDirectories: true)
        // Written by hand: ffmpeg's -master_pl_name fills the master in late.
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=\(width)x\(height)\ntracks-v1/mono.m3u8\n"
            .write(to: camera.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
        let size = "\(width)x\(height)"
        try await ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25", "-t", "3", "-c:v", "libx264",
                          "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p", "-f", "hls", "-hls_time", "1",
                          "-hls_playlist_type", "vod", "-hls_segment_filename", "tracks-v1/%d.ts", "tracks-v1/mono.m3u8"],
                         in: camera, logs: directory)
        try await ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size)", "-frames:v", "1", "-c:v", "libx264",
                          "-pix_fmt", "yuv420p", "preview.mp4"], in: camera, logs: directory)
        let server = try Subprocess("/usr/bin/python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                                                         "-d", directory.path],
                                    name: "http-server", logDirectory: directory.url)
        let output: String
        do {
            output = try await server.waitForOutput(containing: "Serving HTTP on", in: .stdout, timeout: TestPatience.condition)
        } catch {
            await server.stop()
            throw error
        }
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        guard let range = output.range(of: "port "),
              let port = UInt16(output[range.upperBound...].prefix { $0.isNumber }) else {
            await server.stop()
            throw HarnessError("http.server printed no port:\n\(output)")
        }
        return HLSTestFolder(port: port, server: server, directory: directory)
    }

    /// `http://127.0.0.1:PORT/cam1/NAME?token=…`, as the operator API hands them out.
    package func url(_ name: String) -> String { "http://127.0.0.1:\(port)/cam1/\(name)?token=test-token" }

    package func stop() async { await server.stop() }

    /// A Flussonic archive window (`index-FROM-SECONDS.m3u8`) that is the same 3 s recording.
    package func addArchive(from: Int, seconds: Int) throws {
        let camera = directory.url.appendingPathComponent("cam1")
        let master = try Data(contentsOf: camera.appendingPathComponent("index.m3u8"))
        try master.write(to: camera.appendingPathComponent("index-\(from)-\(seconds).m3u8"))
    }

    /// Writes `cam1/tracks-v1/NAME`: the recording's media playlist with segment I's URI (`I.ts`,
    /// relative) replaced by `segment(I)`, and returns its URL (with the token). For tests of
    /// what a playlist may point at.
    package func playlist(_ name: String, segment: (Int) -> String) throws -> String {
        let tracks = directory.url.appendingPathComponent("cam1/tracks-v1")
        let media = try String(contentsOf: tracks.appendingPathComponent("mono.m3u8"), encoding: .utf8)
        var index = 0
        let lines = media.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard !line.isEmpty, !line.hasPrefix("#") else { return String(line) }
            defer { index += 1 }
            return segment(index)
        }
        try lines.joined(separator: "\n").write(to: tracks.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return url("tracks-v1/\(name)")
    }

    /// The origin the folder is served from: `http://127.0.0.1:PORT`.
    package var origin: String { "http://127.0.0.1:\(port)" }

    private static func ffmpeg(_ arguments: [String], in folder: URL, logs: TestDirectory) async throws {
        let process = try Subprocess("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y"] + arguments,
                                     name: "ffmpeg", workingDirectory: folder, logDirectory: logs.url)
        let status = try await process.waitForExit(timeout: .seconds(60))
        guard status == 0 else {
            throw HarnessError("ffmpeg failed (status \(status)) writing the HLS test folder" + HarnessError.tail(process.combinedOutput))
        }
    }
}
