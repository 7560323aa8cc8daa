import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomImaging
@testable import IntercomSimulator
import IntercomPhoneTestSupport
import IntercomTestSupport
import IntercomVideo
import Testing

extension LivePictureSuites {
    /// The kiosk's tiles: each panel's sub stream where it has one, snapshots where it has none, and
    /// the streams stopped (their threads gone) when the screen closes.
    @Suite("Kiosk live tiles")
    struct KioskLiveTests {
        @Test func subStreamsWhereThereAreSomeSnapshotsElsewhere() async throws {
            try await withLiveStreams {
                let rtsp = try await RTSPTestServer.start(auth: .basic, user: "admin", password: "admin", width: 352, height: 288)
                let server = SimulatedPanelHTTPServer(options: SimulatedPanelOptions())
                _ = try server.start()
                var live = PanelConfig(name: "gate", url: server.baseURL, user: "admin", password: "admin")
                live.rtsp = .off
                live.rtspSub = .url(rtsp.url())
                var still = PanelConfig(name: "yard", url: server.baseURL, user: "admin", password: "admin")
                still.rtspSub = .off
                let (intercom, _) = try await PhoneTestSupport.intercom(panels: [live, still])
                try await withCleanup({ await intercom.stop(); server.stop(); await rtsp.stop() }) {
                    let hub = intercom.peephole
                    for panel in ["gate", "yard"] { hub.want(panel: panel, size: PixelSize(width: 80, height: 48)) }
                    await intercom.watch(panels: ["gate", "yard"], fps: 1, live: .sub)
                    try await CallLivePictureTests.until("the gate's tile live") { hub.latest(panel: "gate")?.kind == .live }
                    #expect(hub.latest(panel: "gate")?.image.height == 48)
                    try await CallLivePictureTests.until("the yard's snapshot") { hub.latest(panel: "yard") != nil }
                    try await Task.sleep(for: .seconds(1.2))
                    #expect(hub.latest(panel: "yard")?.kind == .snapshot)
                    #expect(hub.streamNote(panel: "yard") == nil, "a panel without a stream is no failure")
                    #expect(LivePictureTests.decodeThreads() == 1)
                    // The screen closes: the call returns once the stream has stopped.
                    await intercom.watch(panels: [], fps: 1)
                    #expect(try await LivePictureTests.decodeThreadsGone() == 0)
                }
            }
        }
    }
}
