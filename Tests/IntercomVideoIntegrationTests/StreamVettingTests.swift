import Foundation
import IntercomImaging
import IntercomTestSupport
import IntercomVideo
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension LiveVideoTests {
    /// A playlist cannot send the player elsewhere (issue 22): an operator camera's HLS playlist,
    /// served on loopback, whose segments point at another port, local files or FFmpeg's reading
    /// protocols fails as bad data with a line that says why, and nothing it pointed at is
    /// connected to or read. A playlist on its own host still plays.
    @Suite
    struct StreamVettingTests {
        let size = PixelSize(width: 32, height: 24)

        @Test("segments on another loopback port: refused, that port never sees a connection")
        func anotherPort() async throws {
            let folder = try await HLSTestFolder.start()
            let other = try SilentListener()
            try await withCleanup({ other.close(); await folder.stop() }) {
                let url = try folder.playlist("other-port.m3u8") { "http://127.0.0.1:\(other.port)/cam1/tracks-v1/\($0).ts" }
                let reason = try await badDataReason(url)
                #expect(reason.contains("points at 127.0.0.1:\(other.port), which is not fetched"), "\(reason)")
                #expect(reason.contains("only \(folder.origin) is fetched"), "\(reason)")
                #expect(!other.hasPendingConnection, "the other port was connected to")
            }
        }

        @Test("a playlist that turns to another port half-way plays its own segment, then fails")
        func anotherPortLater() async throws {
            let folder = try await HLSTestFolder.start()
            let other = try SilentListener()
            try await withCleanup({ other.close(); await folder.stop() }) {
                let url = try folder.playlist("later.m3u8") { $0 == 0 ? "0.ts" : "http://127.0.0.1:\(other.port)/\($0).ts" }
                let stream = VideoStream(source: VideoSource(url: url), size: size)
                var pictures = 0
                var failure: (any Error)?
                do {
                    for try await _ in stream.frames { pictures += 1 }
                } catch {
                    failure = error
                }
                await stream.stop()
                #expect(pictures > 0, "the first segment, on the playlist's own host, played")
                guard case .badData(_, let reason) = failure as? VideoError else {
                    Issue.record("expected bad data, got \(String(describing: failure))")
                    return
                }
                #expect(reason.contains("127.0.0.1:\(other.port)"), "\(reason)")
                #expect(!other.hasPendingConnection, "the other port was connected to")
            }
        }

        @Test("file: segments: nothing local is read")
        func localFiles() async throws {
            let folder = try await HLSTestFolder.start()
            let directory = try TestDirectory(prefix: "intercom-vetting")
            // A segment-looking file FFmpeg's own checks would let through: only the guard stops it.
            let bait = try directory.write("secret", to: "bait.ts")
            let watch = try FileOpenWatch(bait.path)
            try await withCleanup({ watch.close(); await folder.stop() }) {
                let local = try folder.playlist("local.m3u8") { _ in "file://\(bait.path)" }
                let reason = try await badDataReason(local)
                #expect(reason.contains("points at a file: URL, which is not fetched"), "\(reason)")
                #expect(!watch.wasOpened, "the local file was opened")

                let passwd = try folder.playlist("passwd.m3u8") { _ in "file:///etc/passwd" }
                let passwdReason = try await badDataReason(passwd)
                #expect(passwdReason.contains("names no segment that may be fetched (only \(folder.origin) is fetched)"),
                        "\(passwdReason)")
            }
        }

        @Test("concat:, subfile: and data: segments are refused", arguments: [
            "concat:http://127.0.0.1:PORT/a.ts|http://127.0.0.1:PORT/b.ts",
            "subfile,,start,0,end,100,,:http://127.0.0.1:PORT/a.ts",
            "data:video/mp2t;base64,RwAAEAAA",
            "crypto+http://127.0.0.1:PORT/a.ts",
        ])
        func readingProtocols(segment: String) async throws {
            let folder = try await HLSTestFolder.start()
            let other = try SilentListener()
            try await withCleanup({ other.close(); await folder.stop() }) {
                let url = try folder.playlist("protocol.m3u8") { _ in segment.replacingOccurrences(of: "PORT", with: "\(other.port)") }
                let reason = try await badDataReason(url)
                #expect(reason.contains("only \(folder.origin) is fetched"), "\(reason)")
                #expect(!other.hasPendingConnection, "the port inside the URL was connected to")
            }
        }

        @Test("a playlist naming its segments by full URL on its own host still plays")
        func ownHost() async throws {
            let folder = try await HLSTestFolder.start()
            try await withCleanup({ await folder.stop() }) {
                let url = try folder.playlist("absolute.m3u8") { "\(folder.origin)/cam1/tracks-v1/\($0).ts?token=test-token" }
                let stream = VideoStream(source: VideoSource(url: url), size: size)
                let pictures = try await VideoTestHelpers.frames(of: stream, count: 3, within: TestPatience.condition)
                await stream.stop()
                #expect(pictures.count == 3)
            }
        }

        @Test("a stream URL that redirects (an operator handing out a node) plays from where it was sent")
        func redirectedStream() async throws {
            let folder = try await HLSTestFolder.start()
            let server = try RedirectingServer(["/cam1/index.m3u8": .redirect(to: folder.url("tracks-v1/mono.m3u8"))])
            try await withCleanup({ server.stop(); await folder.stop() }) {
                let stream = VideoStream(source: VideoSource(url: server.url("/cam1/index.m3u8?token=test-token")), size: size)
                let pictures = try await VideoTestHelpers.frames(of: stream, count: 3, within: TestPatience.condition)
                await stream.stop()
                #expect(pictures.count == 3)
            }
        }

        @Test("a segment answered with a redirect elsewhere is not followed")
        func redirectedSegment() async throws {
            let other = try SilentListener()
            let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nseg0.ts\n#EXTINF:1.0,\nseg1.ts\n#EXT-X-ENDLIST\n"
            let server = try RedirectingServer(["/cam1/index.m3u8": .body(playlist),
                                                "/cam1/seg*": .redirect(to: "http://127.0.0.1:\(other.port)/x.ts")])
            try await withCleanup({ server.stop(); other.close() }) {
                let stream = VideoStream(source: VideoSource(url: server.url("/cam1/index.m3u8?token=test-token")), size: size)
                let (error, _) = try await VideoTestHelpers.outcome(of: stream, within: .seconds(10))
                await stream.stop()
                guard case .badData(_, let reason) = error as? VideoError else {
                    Issue.record("expected bad data, got \(String(describing: error))")
                    return
                }
                #expect(reason.contains("to 127.0.0.1:\(server.port) was redirected or failed"), "\(reason)")
                #expect(!other.hasPendingConnection, "the redirect was followed")
            }
        }

        @Test("a live playlist whose reload is redirected elsewhere is refused; the other host is never reached")
        func redirectedReload() async throws {
            let other = try SilentListener()
            // Live (no ENDLIST): FFmpeg fetches it again once its one segment is done.
            let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:1.0,\nseg0.ts\n"
            let server = try RedirectingServer([
                "/cam1/index.m3u8": .first(.body(playlist), then: .redirect(to: "http://127.0.0.1:\(other.port)/cam1/index.m3u8")),
            ])
            try await withCleanup({ server.stop(); other.close() }) {
                let reason = try await badDataReason(server.url("/cam1/index.m3u8?token=test-token"))
                #expect(reason.contains("a reload of its playlist from 127.0.0.1:\(server.port) was redirected or failed"), "\(reason)")
                #expect(!other.hasPendingConnection, "the reload's redirect was followed")
            }
        }

        /// Plays `url` to its end: it must fail as bad data, its line naming the stream without the token.
        private func badDataReason(_ url: String) async throws -> String {
            let stream = VideoStream(source: VideoSource(url: url), size: size)
            let (error, after) = try await VideoTestHelpers.outcome(of: stream, within: .seconds(10))
            await stream.stop()
            guard let error = error as? VideoError, case .badData(_, let reason) = error else {
                Issue.record("expected bad data, got \(String(describing: error))")
                return ""
            }
            #expect(error.exitCode == 65)
            #expect(after < .seconds(5), "refused at once, not at a timeout: \(after)")
            let line = error.description
            #expect(line.hasPrefix("stream http://127.0.0.1:") && line.contains(" cannot be played: "), "\(line)")
            #expect(!line.contains("test-token") && !line.contains("\n"), "\(line)")
            return reason
        }
    }
}

/// Whether anything opened a file since the watch began (inotify `IN_OPEN`).
private final class FileOpenWatch {
    private let descriptor: Int32

    init(_ path: String) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK))
        guard descriptor >= 0 else { throw HarnessError("inotify_init1 failed: errno \(errno)") }
        guard inotify_add_watch(descriptor, path, UInt32(IN_OPEN | IN_ACCESS)) >= 0 else {
            Glibc.close(descriptor)
            throw HarnessError("cannot watch \(path): errno \(errno)")
        }
    }

    /// Events wait in the descriptor: a read finds one if the file was opened or read.
    var wasOpened: Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        return read(descriptor, &buffer, buffer.count) > 0
    }

    func close() { Glibc.close(descriptor) }
}
