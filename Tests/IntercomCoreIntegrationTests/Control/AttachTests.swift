import Foundation
import IntercomDaemon
@testable import IntercomCore
import IntercomImaging
import IntercomPhoneTestSupport
import Testing
import IntercomTestSupport
import IntercomBase
import IntercomAttach

/// A screen attached to the control socket (`RemoteLink`) against an in-process core: it is
/// listed while attached, sees a ring, answers through the daemon, and gets pictures.
@Suite(.removesTestFolders) struct AttachTests {
    /// Polls `condition` until it holds or `timeout` passes.
    static func eventually(_ timeout: Duration = .seconds(5), _ condition: () async -> Bool) async -> Bool {
        await TestPatience.eventually(within: timeout, every: .milliseconds(10), condition)
    }

    static func attach(_ path: String, screen: String) async throws -> RemoteLink {
        try await ControlSocketTests.blocking { try RemoteLink(path: path, screen: screen) }
    }

    static func screens(_ path: String) async throws -> [String] {
        let reply = try await ControlSocketTests.blocking {
            try ControlClient(path: path).request(ControlRequest(action: .command(.status)))
        }
        guard case .array(let list)? = reply["data"]?["screens"] else { return [] }
        return list.compactMap { $0["name"]?.stringValue }
    }

    @Test func screensAreListedWhileAttachedAndACallGoesOnWhenOneLeaves() async throws {
        let s = try await ControlSocketTests.setup()
        try await withCleanup({ await s.stop() }) {
            let first = try await Self.attach(s.path, screen: "tui")
            let second = try await Self.attach(s.path, screen: "kiosk")
            #expect(first.mode == .attached(pid: getpid()))
            #expect(try await Self.screens(s.path) == ["tui", "kiosk"])
            let seen = EventBox()
            let pumps = [first, second].map { link in
                Task { for await event in link.events() { seen.add(link === first ? "first" : "second", event.name) } }
            }
            defer { for pump in pumps { pump.cancel() } }
            let call = try await s.ring()
            #expect(await Self.eventually { seen.has("first", "call_incoming") && seen.has("second", "call_incoming") })
            let data = try await first.execute(.answer(call.id))
            #expect(data["call"] == .string(call.id.rawValue))
            #expect(await Self.eventually { seen.has("second", "call_answered") })
            // The first screen goes away (as if killed): the daemon drops it, the call stays up.
            first.detach()
            #expect(await Self.eventually { (try? await Self.screens(s.path)) == ["kiosk"] })
            #expect(await s.intercom.status["calls"]?.encoded.contains("\"active\"") == true)
            _ = try await second.execute(.hangup(call.id))
            #expect(await Self.eventually { seen.has("second", "call_ended") })
            second.detach()
        }
    }

    @Test func aRefusedCommandSaysWhy() async throws {
        let s = try await ControlSocketTests.setup()
        try await withCleanup({ await s.stop() }) {
            let link = try await Self.attach(s.path, screen: "tui")
            defer { link.detach() }
            await #expect(throws: RemoteLinkError.self) { try await link.execute(.answer(nil)) }
            let unknown = try await ControlSocketTests.blocking {
                try ControlClient(path: s.path).request(ControlRequest(id: .integer(1), action: .picture(
                    PictureRequest(source: .panel("nowhere"), width: 64, height: 64, fps: 1))))
            }
            #expect(unknown["ok"] == .bool(false) && unknown["error"]?.stringValue?.contains("no panel 'nowhere'; known: entrance") == true,
                    "\(unknown.encoded)")
        }
    }

    /// The carriage of pictures, measured (DECISIONS "Screens attach"): a peephole frame reaches
    /// the screen decoded, and a screen that never reads keeps one frame waiting, not a queue.
    @Test func picturesReachTheScreenNewestFirst() async throws {
        let s = try await ControlSocketTests.setup()
        try await withCleanup({ await s.stop() }) {
            let link = try await Self.attach(s.path, screen: "tui")
            defer { link.detach() }
            let image = try #require(RGBImage(width: 640, height: 360, pixels: (0..<(640 * 360 * 3)).map { UInt8(truncatingIfNeeded: $0 / 7) }))
            link.want(panel: "entrance", size: PixelSize(width: 640, height: 360), live: true)
            var received: [Int] = []
            var first = Duration.zero
            let began = ContinuousClock.now
            for n in 1...5 {
                let published = ContinuousClock.now
                s.intercom.peephole.publish(PeepholeFrame(panel: "entrance", call: nil, jpeg: nil, image: image, sequence: 0,
                                                          fetchedAt: Date(), kind: .live))
                #expect(await Self.eventually { (link.latest(panel: "entrance")?.sequence ?? 0) >= n })
                if n == 1 { first = published.duration(to: .now) }
                received.append(link.latest(panel: "entrance")?.sequence ?? 0)
            }
            // After the first, frames are kept `1/fps` apart (12 fps: 83 ms).
            let perFrame = began.duration(to: .now) / 5
            let frame = try #require(link.latest(panel: "entrance"))
            #expect(frame.image.width == 640 && frame.image.height == 360 && frame.kind == .live)
            #expect(received == [1, 2, 3, 4, 5])
            print("attach: 640×360 live frame published → decoded on the screen: first \(first), then \(perFrame) per frame")
        }
    }
}

extension AttachTests {
    /// A screen that stops reading (SIGSTOP, a dead ssh link) while pictures flow: the other screen
    /// keeps getting the newest picture, the daemon keeps answering, and the stalled screen stays
    /// attached (frames wait in one slot, never in its outbox).
    @Test func aScreenThatStopsReadingSlowsNobody() async throws {
        let s = try await ControlSocketTests.setup()
        try await withCleanup({ await s.stop() }) {
            let stalled = try ControlClient(path: s.path)
            try stalled.send(ControlRequest(action: .attach(screen: "stalled")))
            try stalled.send(ControlRequest(action: .picture(PictureRequest(source: .panel("entrance"), width: 640, height: 360, fps: 30))))
            let link = try await Self.attach(s.path, screen: "tui")
            defer { link.detach() }
            link.want(panel: "entrance", size: PixelSize(width: 640, height: 360), live: true)
            // Noise: about 90 KB a JPEG, so the stalled socket's buffer fills within a few frames.
            var seed: UInt32 = 7
            let noise = (0..<(640 * 360 * 3)).map { _ -> UInt8 in
                seed = seed &* 1_103_515_245 &+ 12345
                return UInt8(truncatingIfNeeded: seed >> 24)
            }
            let image = try #require(RGBImage(width: 640, height: 360, pixels: noise))
            var slowest = Duration.zero
            for n in 1...40 {
                s.intercom.peephole.publish(PeepholeFrame(panel: "entrance", call: nil, jpeg: nil, image: image, sequence: 0,
                                                          fetchedAt: Date(), kind: .live))
                #expect(await Self.eventually { (link.latest(panel: "entrance")?.sequence ?? 0) >= n }, "frame \(n)")
                if n % 10 == 0 {
                    let asked = ContinuousClock.now
                    #expect(try await Self.screens(s.path) == ["stalled", "tui"])
                    slowest = max(slowest, asked.duration(to: .now))
                }
            }
            #expect(slowest < .seconds(1), "status took \(slowest) beside a stalled screen")
            print("attach: 40 frames of 640×360 noise past a stalled screen; slowest status \(slowest)")
        }
    }
}

extension AttachTests {
    /// Two kiosks attached, each connection a subscriber: the engine plays the union of their
    /// panels at the faster's rate, goes on at the other's when one leaves, and drops the
    /// subscriptions of a connection that closes without a word; a panel it lacks is refused.
    @Test func kiosksShareTheDaemonsWatchedPanels() async throws {
        let s = try await ControlSocketTests.setup()
        try await withCleanup({ await s.stop() }) {
            let one = try await Self.attach(s.path, screen: "kiosk")
            let two = try await Self.attach(s.path, screen: "kiosk")
            _ = try await one.execute(.watch(one.subscriber, panels: ["entrance"], fps: 2))
            _ = try await two.execute(.watch(two.subscriber, panels: ["entrance"], fps: 1))
            #expect(await s.intercom.subscriptions.watchers.count == 1)
            #expect(await s.intercom.subscriptions.watchedUnion.fps == 2)
            one.detach()
            #expect(await Self.eventually { (try? await Self.screens(s.path)) == ["kiosk"] })
            #expect(await Self.eventually { await s.intercom.subscriptions.watchedUnion.fps == 1 }, "the faster kiosk's rate left with it")
            #expect(await s.intercom.subscriptions.watchers.count == 1, "the other kiosk still shows the panel")
            _ = try await two.execute(.unwatch(two.subscriber))
            #expect(await s.intercom.subscriptions.watchers.isEmpty)
            _ = try await two.execute(.watch(two.subscriber, panels: ["entrance"], fps: 1))
            #expect(await s.intercom.subscriptions.watchers.count == 1)
            let unknown = try await ControlSocketTests.blocking {
                try ControlClient(path: s.path).request(ControlRequest(id: .integer(1), action: .command(.watch(.sender, panels: ["nowhere"], fps: 1))))
            }
            #expect(unknown["ok"] == .bool(false) && unknown["error"]?.stringValue?.hasPrefix("no panel 'nowhere'") == true,
                    "\(unknown.encoded)")
            // The kiosk goes away without unwatching: its connection's subscriptions go with it.
            two.detach()
            #expect(await Self.eventually { await s.intercom.subscriptions.watchers.isEmpty })
            #expect(await s.intercom.subscriptions.watchedUnion == .nothing)
        }
    }
}

/// What each test screen saw, by screen.
final class EventBox: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: Set<String> = []
    func add(_ who: String, _ name: String) { lock.withLock { _ = seen.insert("\(who) \(name)") } }
    func has(_ who: String, _ name: String) -> Bool { lock.withLock { seen.contains("\(who) \(name)") } }
}
