import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomImaging
@testable import IntercomSimulator
import IntercomPhone
import IntercomPhoneTestSupport
import IntercomTestSupport
import Testing

extension LivePictureSuites {
    /// A ringing call's pictures: the peephole's first snapshot, then the panel's live stream once a
    /// screen shows the call — and no stream at all where nothing is drawn (the daemon).
    @Suite("Call live picture")
    struct CallLivePictureTests {
        struct Setup {
            var server: SimulatedPanelHTTPServer
            var rtsp: RTSPTestServer
            var intercom: Intercom
            var events: EventRecorder<IntercomEvent>
            var panel: Phone

            func stop() async {
                await panel.stop()
                await intercom.stop()
                server.stop()
                await rtsp.stop()
            }

            func ring() async throws -> (outgoing: CallID, incoming: IntercomEvent.CallRef) {
                let port = await intercom.listening.first?.port ?? 0
                let outgoing = try await panel.call("sip:panel@127.0.0.1:\(port)", video: false)
                let incoming = try await events.wait("call_incoming") { e -> IntercomEvent.CallRef? in
                    if case .callIncoming(let c) = e.kind { c } else { nil } }
                return (outgoing, incoming)
            }
        }

        static func setup() async throws -> Setup {
            let rtsp = try await RTSPTestServer.start(auth: .digest, user: "admin", password: "admin", width: 320, height: 240)
            let server = SimulatedPanelHTTPServer(options: SimulatedPanelOptions())
            _ = try server.start()
            var config = PanelConfig(name: "entrance", url: server.baseURL, user: "admin", password: "admin",
                                     match: [.uriPrefix("sip:panel@")], peepholeFPS: 3)
            config.rtsp = .url(rtsp.url())
            let (intercom, events) = try await PhoneTestSupport.intercom(panels: [config])
            let (panel, _) = try await PhoneTestSupport.phone("panel")
            return Setup(server: server, rtsp: rtsp, intercom: intercom, events: events, panel: panel)
        }

        static func until(_ what: String, within limit: Duration = .seconds(10), _ check: @Sendable () -> Bool) async throws {
            guard await TestPatience.eventually(within: limit, every: .milliseconds(10), { check() }) else {
                throw HarnessError.timeout(what, after: limit)
            }
        }

        @Test func theFirstSnapshotThenTheStreamWhileAScreenShowsTheCall() async throws {
            try await withLiveStreams {
                let s = try await Self.setup()
                try await withCleanup({ await s.stop() }) {
                    let hub = s.intercom.peephole
                    // A screen draws the panel at 160×120 (the TUI says so as it draws the call).
                    hub.want(panel: "entrance", size: PixelSize(width: 160, height: 120))
                    let (outgoing, incoming) = try await s.ring()
                    try await Self.until("the first picture") { hub.latest(panel: "entrance")?.call == incoming.id }
                    #expect(hub.latest(panel: "entrance")?.kind == .snapshot, "the snapshot comes before the stream's key frame")
                    try await Self.until("the stream's first frame") {
                        hub.latest(panel: "entrance")?.kind == .live && hub.latest(panel: "entrance")?.call == incoming.id }
                    #expect(hub.latest(panel: "entrance")?.image.width == 160)
                    // The snapshots pause while the stream plays; the journal keeps the first one.
                    try await Task.sleep(for: .milliseconds(300))
                    let before = s.server.requestCount("images_cgi")
                    try await Task.sleep(for: .seconds(1.5))
                    #expect(s.server.requestCount("images_cgi") - before <= 1)
                    #expect(hub.latest(panel: "entrance")?.kind == .live)
                    #expect(hub.latestSnapshot(panel: "entrance")?.jpeg != nil)
                    try await s.panel.hangup(outgoing)
                    _ = try await s.events.wait("call_ended") { e -> Bool? in if case .callEnded = e.kind { true } else { nil } }
                    try await Self.until("the call's stream to stop", within: .seconds(3)) { !hub.isLive(panel: "entrance") }
                }
            }
        }

        @Test func withoutAScreenNoStreamIsPlayed() async throws {
            try await withLiveStreams {
                let s = try await Self.setup()
                try await withCleanup({ await s.stop() }) {
                    let hub = s.intercom.peephole
                    let (outgoing, incoming) = try await s.ring()
                    try await Self.until("the first picture") { hub.latest(panel: "entrance")?.call == incoming.id }
                    try await Task.sleep(for: .seconds(1.5))
                    #expect(hub.latest(panel: "entrance")?.kind == .snapshot)
                    #expect(!hub.isLive(panel: "entrance"))
                    try await s.panel.hangup(outgoing)
                    _ = try await s.events.wait("call_ended") { e -> Bool? in if case .callEnded = e.kind { true } else { nil } }
                }
            }
        }
    }
}
