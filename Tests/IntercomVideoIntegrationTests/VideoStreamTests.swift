import Foundation
import IntercomImaging
import IntercomTestSupport
import IntercomVideo
import Testing

extension LiveVideoTests {
    /// `VideoStream` against a real RTSP server on loopback.
    @Suite
    struct VideoStreamTests {
        let size = PixelSize(width: 160, height: 96)

        @Test("frames arrive at the requested size from an open stream")
        func framesAtRequestedSize() async throws {
            let server = try await RTSPTestServer.start()
            try await withCleanup({ await server.stop() }) {
                let stream = VideoStream(source: VideoSource(url: server.url()), size: size)
                try await withCleanup({ await stream.stop() }) {
                    let pictures = try await VideoTestHelpers.frames(of: stream, count: 5, within: TestPatience.condition)
                    #expect(pictures.count == 5)
                    for picture in pictures {
                        #expect(picture.width == 160 && picture.height == 96)
                        #expect(picture.pixels.count == 160 * 96 * 3)
                    }
                    #expect(pictures.contains(where: VideoTestHelpers.hasDetail), "the test pattern should not decode blank")
                }
            }
            #expect(try await VideoTestHelpers.decodeThreadsGone(within: .seconds(2)) == 0)
        }

        @Test("the password is answered as the server asks", arguments: [RTSPTestServer.Auth.basic, .digest, .both])
        func authenticates(auth: RTSPTestServer.Auth) async throws {
            // Characters that would split a URL if they were not encoded.
            let password = "p@ss:w/rd%?#"
            let server = try await RTSPTestServer.start(auth: auth, user: "admin", password: password)
            try await withCleanup({ await server.stop() }) {
                let source = VideoSource(url: server.url(), user: "admin", password: password)
                let stream = VideoStream(source: source, size: size)
                try await withCleanup({ await stream.stop() }) {
                    let pictures = try await VideoTestHelpers.frames(of: stream, count: 2, within: TestPatience.condition)
                    #expect(pictures.allSatisfy { $0.width == 160 && $0.height == 96 })
                }
            }
        }

        @Test("a wrong password gives the auth error quickly, without the password in it")
        func wrongPassword() async throws {
            let server = try await RTSPTestServer.start(auth: .both, user: "admin", password: "right")
            try await withCleanup({ await server.stop() }) {
                let source = VideoSource(url: server.url(), user: "admin", password: "wrong-secret")
                let stream = VideoStream(source: source, size: size)
                let (error, after) = try await VideoTestHelpers.outcome(of: stream, within: .seconds(10))
                let videoError = try #require(error as? VideoError)
                #expect(videoError == .authRefused(stream: server.url()))
                #expect(videoError.exitCode == 77)
                #expect(!videoError.description.contains("wrong-secret"))
                #expect(after < .seconds(3), "took \(after)")
            }
        }

        @Test("no credentials for a server that wants them gives the auth error")
        func missingCredentials() async throws {
            let server = try await RTSPTestServer.start(auth: .digest, user: "admin", password: "right")
            try await withCleanup({ await server.stop() }) {
                let stream = VideoStream(source: VideoSource(url: server.url()), size: size)
                let (error, after) = try await VideoTestHelpers.outcome(of: stream, within: .seconds(10))
                #expect(error as? VideoError == .authRefused(stream: server.url()))
                #expect(after < .seconds(3), "took \(after)")
            }
        }

        @Test("a closed port gives unavailable within the timeout")
        func closedPort() async throws {
            let port = try FreePort.udpAndTCP()
            let source = VideoSource(url: "rtsp://127.0.0.1:\(port)/av0_0", openTimeout: .seconds(2))
            let stream = VideoStream(source: source, size: size)
            let (error, after) = try await VideoTestHelpers.outcome(of: stream, within: .seconds(5))
            let videoError = try #require(error as? VideoError)
            guard case .unavailable(_, let reason) = videoError else {
                Issue.record("expected unavailable, got \(videoError)")
                return
            }
            #expect(reason.contains("refused"), "\(reason)")
            #expect(videoError.exitCode == 69)
            #expect(after < .seconds(2), "took \(after)")
        }

        @Test("a server that accepts and never answers gives unavailable at the open timeout")
        func silentServer() async throws {
            let listener = try SilentListener()
            defer { withExtendedLifetime(listener) {} }
            let source = VideoSource(url: "rtsp://127.0.0.1:\(listener.port)/av0_0", openTimeout: .seconds(1),
                                     readTimeout: .seconds(1))
            let stream = VideoStream(source: source, size: size)
            let (error, after) = try await VideoTestHelpers.outcome(of: stream, within: .seconds(6))
            let videoError = try #require(error as? VideoError)
            guard case .unavailable(_, let reason) = videoError else {
                Issue.record("expected unavailable, got \(videoError)")
                return
            }
            #expect(reason.contains("no answer within 1 s"), "\(reason)")
            #expect(after < .seconds(3), "took \(after)")
        }

        @Test("a path the server does not have gives unavailable")
        func noSuchStream() async throws {
            let server = try await RTSPTestServer.start()
            try await withCleanup({ await server.stop() }) {
                let stream = VideoStream(source: VideoSource(url: server.url(path: "/av0_9")), size: size)
                let (error, after) = try await VideoTestHelpers.outcome(of: stream, within: .seconds(10))
                let videoError = try #require(error as? VideoError)
                guard case .unavailable = videoError else {
                    Issue.record("expected unavailable, got \(videoError)")
                    return
                }
                #expect(after < .seconds(3), "took \(after)")
            }
        }

        @Test("a stream whose server dies ends with the ended error")
        func serverDies() async throws {
            let server = try await RTSPTestServer.start()
            try await withCleanup({ await server.stop() }) {
                let source = VideoSource(url: server.url(), readTimeout: .seconds(2))
                let stream = VideoStream(source: source, size: size)
                _ = try await VideoTestHelpers.frames(of: stream, count: 1, within: TestPatience.condition)
                await server.kill()
                let (error, after) = try await VideoTestHelpers.outcome(of: stream, within: .seconds(6))
                let videoError = try #require(error as? VideoError)
                guard case .ended = videoError else {
                    Issue.record("expected ended, got \(videoError)")
                    return
                }
                #expect(videoError.exitCode == 69)
                #expect(after < .seconds(3), "took \(after)")
            }
            #expect(try await VideoTestHelpers.decodeThreadsGone(within: .seconds(2)) == 0)
        }

        @Test("a stream that goes silent with its connection open ends at the read timeout")
        func serverHangs() async throws {
            let server = try await RTSPTestServer.start()
            try await withCleanup({ await server.stop() }) {
                let source = VideoSource(url: server.url(), readTimeout: .seconds(1))
                let stream = VideoStream(source: source, size: size)
                _ = try await VideoTestHelpers.frames(of: stream, count: 1, within: TestPatience.condition)
                server.freeze()
                let (error, after) = try await VideoTestHelpers.outcome(of: stream, within: .seconds(6))
                let videoError = try #require(error as? VideoError)
                guard case .ended(_, let reason) = videoError else {
                    Issue.record("expected ended, got \(videoError)")
                    return
                }
                #expect(reason.contains("nothing came for 1 s"), "\(reason)")
                #expect(after < .seconds(3), "took \(after)")
            }
            #expect(try await VideoTestHelpers.decodeThreadsGone(within: .seconds(2)) == 0)
        }

        @Test("stopping mid-stream returns promptly and leaves no decode thread")
        func stopMidStream() async throws {
            let server = try await RTSPTestServer.start()
            try await withCleanup({ await server.stop() }) {
                let stream = VideoStream(source: VideoSource(url: server.url()), size: size)
                _ = try await VideoTestHelpers.frames(of: stream, count: 2, within: TestPatience.condition)
                #expect(VideoTestHelpers.decodeThreads() == 1)
                let clock = ContinuousClock()
                let start = clock.now
                await stream.stop()
                let took = clock.now - start
                #expect(took < .seconds(1), "stop took \(took)")
                let (error, _) = try await VideoTestHelpers.outcome(of: stream, within: .seconds(2))
                #expect(error == nil, "a stop is not a failure: \(String(describing: error))")
            }
            #expect(try await VideoTestHelpers.decodeThreadsGone(within: .seconds(1)) == 0)
        }
    }
}
