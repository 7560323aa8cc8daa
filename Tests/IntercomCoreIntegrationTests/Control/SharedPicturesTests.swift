import Foundation
import IntercomDaemon
@testable import IntercomCore
import IntercomImaging
import Testing
import IntercomTestSupport
import IntercomBase
import IntercomAttach

/// Screens attached to one daemon showing one panel: a frame is encoded once per size, however
/// many screens show it at that size, and screens asking different sizes each get their own
/// (the stream is decoded at the largest; none of them wins over the others).
@Suite struct SharedPicturesTests {
    static func frame(_ width: Int, _ height: Int) throws -> PeepholeFrame {
        let image = try #require(RGBImage(width: width, height: height,
                                          pixels: (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 / 5) }))
        return PeepholeFrame(panel: "entrance", call: nil, jpeg: nil, image: image, sequence: 0, fetchedAt: Date(), kind: .live)
    }

    @Test func threeScreensAtOneSizeCostOneEncodeAFrame() async throws {
        let s = try await ControlSocketTests.setup()
        try await withCleanup({ await s.stop() }) {
            var links: [RemoteLink] = []
            for _ in 0..<3 { links.append(try await AttachTests.attach(s.path, screen: "tui")) }
            defer { for link in links { link.detach() } }
            for link in links { link.want(panel: "entrance", size: PixelSize(width: 320, height: 180), live: true) }
            #expect(await AttachTests.eventually { s.server.pictureSlots == 2 }, "one live and one snapshot slot for the three")
            let before = s.server.picturesEncoded
            for n in 1...4 {
                s.intercom.peephole.publish(try Self.frame(320, 180))
                #expect(await AttachTests.eventually { links.allSatisfy { ($0.latest(panel: "entrance")?.sequence ?? 0) >= n } }, "frame \(n)")
            }
            let encodes = s.server.picturesEncoded - before
            #expect(encodes == 4, "4 frames shown on 3 screens took \(encodes) encodes")
            print("shared pictures: 4 frames on 3 screens at one size, \(encodes) encodes")
        }
    }

    @Test func screensAskingDifferentSizesEachGetTheirs() async throws {
        let s = try await ControlSocketTests.setup()
        try await withCleanup({ await s.stop() }) {
            let large = try await AttachTests.attach(s.path, screen: "tui")
            let small = try await AttachTests.attach(s.path, screen: "kiosk")
            defer { large.detach(); small.detach() }
            large.want(panel: "entrance", size: PixelSize(width: 640, height: 360), live: true)
            small.want(panel: "entrance", size: PixelSize(width: 160, height: 90), live: true)
            // The stream is decoded at the largest size asked, whichever screen asked last.
            #expect(await AttachTests.eventually { s.intercom.peephole.liveSize(panel: "entrance") == PixelSize(width: 640, height: 360) })
            s.intercom.peephole.publish(try Self.frame(640, 360))
            #expect(await AttachTests.eventually { large.latest(panel: "entrance") != nil && small.latest(panel: "entrance") != nil })
            #expect(large.latest(panel: "entrance").map { [$0.image.width, $0.image.height] } == [640, 360])
            #expect(small.latest(panel: "entrance").map { [$0.image.width, $0.image.height] } == [160, 90])
            // The large screen leaves: the stream goes on at the size of the one left.
            large.detach()
            #expect(await AttachTests.eventually { s.intercom.peephole.liveSize(panel: "entrance") == PixelSize(width: 160, height: 90) })
            small.want(panel: "entrance", size: PixelSize(width: 160, height: 90), live: false)
            #expect(await AttachTests.eventually { s.intercom.peephole.liveSize(panel: "entrance") == nil }, "nobody looks live: the stream stops")
        }
    }

    /// A connection's picture wants are the engine's (`IntercomCommand.picture` under the
    /// connection's subscriber): a screen that goes away without stopping them takes them along.
    @Test func aClosingConnectionTakesItsPictureWantsAlong() async throws {
        let s = try await ControlSocketTests.setup()
        try await withCleanup({ await s.stop() }) {
            let link = try await AttachTests.attach(s.path, screen: "watch")
            defer { link.detach() }
            link.want(panel: "entrance", size: PixelSize(width: 640, height: 360), live: true)
            #expect(await AttachTests.eventually {
                s.intercom.pictureWants.merged(panel: "entrance") == PictureWant(width: 640, height: 360, live: true)
            })
            #expect(s.intercom.peephole.liveSize(panel: "entrance") == PixelSize(width: 640, height: 360))
            link.detach()
            #expect(await AttachTests.eventually { s.intercom.pictureWants.merged(panel: "entrance") == nil })
            #expect(s.intercom.peephole.liveSize(panel: "entrance") == nil, "nobody looks live: the stream stops")
        }
    }

    /// An operator camera is the daemon's to ask for: an unknown one is one line before the screen
    /// opens, and a picture of a camera the connection did not ask to watch is refused like a made-up panel.
    @Test func aCameraTheDaemonCannotPlayIsOneLine() async throws {
        let s = try await ControlSocketTests.setup()
        try await withCleanup({ await s.stop() }) {
            let link = try await AttachTests.attach(s.path, screen: "watch")
            defer { link.detach() }
            do {
                try await link.watchCamera(id: "home:cam:1", at: nil)
                Issue.record("a camera of no configured operator was accepted")
            } catch {
                #expect("\(error)".contains("operator cameras are OPERATOR:cam:ID"), "\(error)")
            }
            let picture = try await ControlSocketTests.blocking {
                try ControlClient(path: s.path).request(ControlRequest(id: .integer(1), action: .picture(
                    PictureRequest(source: .panel("home:cam:1"), width: 64, height: 64, fps: 1))))
            }
            #expect(picture["ok"] == .bool(false), "\(picture.encoded)")
        }
    }
}
