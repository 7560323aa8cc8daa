import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomImaging
@testable import IntercomSimulator
import IntercomPhoneTestSupport
import IntercomTestSupport
import Testing

extension LivePictureSuites {
    /// A stream that hangs (the connection open, nothing coming) must not freeze the picture until
    /// its read timeout: the snapshots take over within `PeepholeHub.liveHold`.
    @Suite("Stalled stream")
    struct StalledStreamTests {
        @Test func aStalledStreamGivesWayToSnapshotsWithinASecondOrTwo() async throws {
            try await withLiveStreams {
                let rtsp = try await RTSPTestServer.start(width: 320, height: 240, fps: 25)
                let server = SimulatedPanelHTTPServer(options: SimulatedPanelOptions())
                _ = try server.start()
                var config = PanelConfig(name: "porch", url: server.baseURL, user: "admin", password: "admin")
                config.rtsp = .url(rtsp.url())
                let (intercom, _) = try await PhoneTestSupport.intercom(panels: [config])
                try await withCleanup({ await intercom.stop(); server.stop(); await rtsp.stop() }) {
                    let hub = intercom.peephole
                    hub.want(panel: "porch", size: PixelSize(width: 160, height: 96))
                    await intercom.watch(panels: ["porch"], fps: 4, live: .main)
                    try await CallLivePictureTests.until("live frames") { hub.latest(panel: "porch")?.kind == .live }
                    // SIGSTOP: the server's connection stays open and nothing comes.
                    rtsp.freeze()
                    let clock = ContinuousClock()
                    let frozen = clock.now
                    try await CallLivePictureTests.until("a snapshot", within: .seconds(4)) {
                        hub.latest(panel: "porch")?.kind == .snapshot }
                    #expect(clock.now - frozen < .seconds(2.5), "snapshots came back after \(clock.now - frozen)")
                    let first = try #require(hub.latest(panel: "porch")?.sequence)
                    await TestPatience.eventually(within: .seconds(5)) { (hub.latest(panel: "porch")?.sequence ?? first) > first }
                    #expect(try #require(hub.latest(panel: "porch")?.sequence) > first, "the snapshots keep coming")
                    rtsp.thaw()
                    await intercom.watch(panels: [], fps: 1)
                    #expect(try await LivePictureTests.decodeThreadsGone() == 0)
                }
            }
        }
    }
}
