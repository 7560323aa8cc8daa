import Foundation
import IntercomDaemon
@testable import IntercomCore
import IntercomImaging
import IntercomPhoneTestSupport
import Testing
import IntercomTestSupport
import IntercomBase
import IntercomAttach
import Synchronization

/// A screen attached to a daemon that goes away and comes back (issue 38), against an in-process
/// core and real control sockets: the screen says it is away, its call ends, and it attaches again
/// by itself to the socket's next server, whose rings and pictures it then gets; and a screen never
/// attaches to a daemon of another config.
@Suite(.removesTestFolders) struct ReattachTests {
    @Test func aScreenAttachesAgainToTheDaemonThatComesBackAndRingsAndAnswers() async throws {
        let s = try await ControlSocketTests.setup()
        let again = Mutex<ControlServer?>(nil)
        try await withCleanup({
            again.withLock { $0 }?.stop()
            await s.stop()
        }) {
            let link = try await AttachTests.attach(s.path, screen: "tui")
            let seen = EventList()
            let pump = Task { for await event in link.events() { seen.add(event) } }
            link.want(panel: "entrance", size: PixelSize(width: 320, height: 180), live: true)
            // A kiosk's subscription: the engine plays the panel for this screen's connection.
            _ = try await link.execute(.watch(link.subscriber, panels: ["entrance"], fps: 2))
            let first = try await s.ring()
            #expect(await AttachTests.eventually { seen.names.contains("call_incoming") })

            // The daemon goes: the screen says so, and the call it showed ends on it (it was the daemon's).
            s.server.stop()
            await s.server.settle()
            #expect(await AttachTests.eventually { link.mode.awayLine != nil }, "\(link.mode)")
            #expect(await AttachTests.eventually { seen.names.contains("call_ended") })
            #expect(await AttachTests.eventually { await s.intercom.subscriptions.watchers.isEmpty }, "the closed connection took its panels")
            await #expect(throws: RemoteLinkError.self) { try await link.execute(.answer(first.id)) }
            _ = try await s.intercom.execute(.decline(first.id))

            // It comes back on the same socket: the screen attaches by itself and is listed again.
            let server = ControlServer(path: s.path, intercom: s.intercom, logger: .silent)
            try server.start()
            again.withLock { $0 = server }
            #expect(await AttachTests.eventually(.seconds(10)) { link.mode == .attached(pid: getpid()) }, "\(link.mode)")
            #expect(try await AttachTests.screens(s.path) == ["tui"])

            // Its subscription was made again on the new connection, at the rate it asked.
            #expect(await AttachTests.eventually { await s.intercom.subscriptions.watchers.count == 1 })
            #expect(await s.intercom.subscriptions.watchedUnion.fps == 2)
            // Its picture want was made again: a new picture of the panel reaches it.
            let image = try #require(RGBImage(width: 320, height: 180, pixels: [UInt8](repeating: 90, count: 320 * 180 * 3)))
            let before = link.latest(panel: "entrance")?.sequence ?? 0
            #expect(await AttachTests.eventually {
                s.intercom.peephole.publish(PeepholeFrame(panel: "entrance", call: nil, jpeg: nil, image: image, sequence: 0,
                                                          fetchedAt: Date(), kind: .live))
                return (link.latest(panel: "entrance")?.sequence ?? 0) > before
            })

            // A panel rings again: the same screen hears it and answers it, no key from anyone else.
            let port = await s.intercom.listening.first?.port ?? 0
            // The panel's phone takes a new call once its first has ended on its side too.
            #expect(await AttachTests.eventually { (try? await s.panel.call("sip:door@127.0.0.1:\(port)", video: false)) != nil })
            #expect(await AttachTests.eventually { seen.incoming.count == 2 }, "\(seen.names)")
            let second = try #require(seen.incoming.last)
            #expect(second != first.id)
            let data = try await link.execute(.answer(second))
            #expect(data["call"] == .string(second.rawValue))
            _ = try await link.execute(.hangup(second))
            await link.finish()
            await pump.value
        }
    }

    @Test func aScreenOfAnotherConfigDoesNotAttachAndTheDaemonSaysWhoItIs() async throws {
        let s = try await ControlSocketTests.setup()
        try await withCleanup({ await s.stop() }) {
            // The in-process engine serves no file: the built-in defaults.
            await #expect {
                try await ControlSocketTests.blocking { try RemoteLink(path: s.path, screen: "kiosk", config: .file("/nowhere/desk.ini")) }
            } throws: { error in
                guard case AttachError.otherConfig(let daemon, let screen)? = error as? AttachError else { return false }
                return daemon.config == nil && daemon.pid == getpid() && screen == "/nowhere/desk.ini"
            }
            #expect(try await AttachTests.screens(s.path).isEmpty)
            let link = try await ControlSocketTests.blocking { try RemoteLink(path: s.path, screen: "tui", config: .file(nil)) }
            let daemon = try #require(link.daemon)
            #expect(daemon == DaemonIdentity(pid: getpid(), version: IntercomVersion.string, config: nil))
            await link.finish()
            // `status` says it too: the screens of both binaries decide by it before they attach.
            #expect(RunningDaemon.placement(socketPath: s.path, config: nil, ownEngine: false) == .attach(daemon))
            #expect(RunningDaemon.placement(socketPath: s.path, config: "/nowhere/desk.ini", ownEngine: false)
                    == .besideOther(DaemonIdentity(pid: getpid(), version: IntercomVersion.string, config: nil)))
            #expect(RunningDaemon.placement(socketPath: s.path, config: nil, ownEngine: true) == .ownEngine)
            #expect(RunningDaemon.placement(socketPath: s.path + ".none", config: nil, ownEngine: false) == .ownEngine)
        }
    }
}

/// The events a screen got, in order.
final class EventList: Sendable {
    private let events = Mutex<[IntercomEvent]>([])
    func add(_ event: IntercomEvent) { events.withLock { $0.append(event) } }
    var names: [String] { events.withLock { $0.map(\.name) } }
    var incoming: [CallID] {
        events.withLock { $0.compactMap { if case .callIncoming(let ref) = $0.kind { ref.id } else { nil } } }
    }
}

extension ReattachTests {
    /// A daemon that attaches the screen and then never reads or closes again (stopped, hung): the
    /// screen's `finish` does not wait for it past `RemoteLink.closeGrace`, and its reader ends.
    @Test func aScreenLeavesADaemonThatNeverClosesWithinASecond() async throws {
        let folder = try TestDirectory(prefix: "intercom-hung")
        let path = folder.path + "/control.sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = try #require(UnixSocket.address(path))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && listen(listener, 1) == 0)
        let peer = Mutex<Int32>(-1)
        defer { peer.withLock { if $0 >= 0 { close($0) } } }
        // The hung daemon: answers the attach and its state, then nothing, ever.
        async let answered = ControlSocketTests.blocking { () -> Bool in
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return false }
            peer.withLock { $0 = fd }
            let lines = ControlReply.success(id: .string("attach"), data: .object([("screen", .integer(1))])).encoded + "\n"
                + ControlReply.state(.object([("panels", .array([])), ("calls", .array([]))]), time: "2026-01-01T00:00:00Z").encoded + "\n"
            return UnixSocket.writeAll(fd, Array(lines.utf8))
        }
        let link = try await ControlSocketTests.blocking { try RemoteLink(path: path, screen: "tui") }
        #expect(try await answered)
        let began = ContinuousClock.now
        await link.finish()
        let took = began.duration(to: .now)
        #expect(took < .seconds(3), "finish waited \(took) for a daemon that never closes")
        print("reattach: finish past a hung daemon took \(took)")
    }
}
