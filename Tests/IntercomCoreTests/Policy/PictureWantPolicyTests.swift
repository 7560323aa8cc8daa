import Foundation
import IntercomBase
import IntercomDaemon
@testable import IntercomCore
import IntercomCoreFakes
import IntercomImaging
import IntercomOperator
import Testing

/// A screen's picture wants (which panel, at which pixel box, live or stills) as the `picture`
/// command, on fakes: each face wants under its own `Subscriber`, and the hub is told the merge
/// (the largest box each side, live while any asks live), so one face changing or leaving never
/// shrinks or stops what another still draws.
@Suite(.removesTestFolders) struct PictureWantPolicyTests {
    static let panels = ["gate", "yard", "porch"].map { PanelConfig(name: $0, url: "http://127.0.0.1:9") }
    static let kiosk = Subscriber("kiosk")
    static let watch = Subscriber("watch")

    static func want(_ width: Int, _ height: Int, live: Bool) -> PictureWant { PictureWant(width: width, height: height, live: live) }

    @Test func theHubIsToldTheLargestBoxEachSideAndLiveIfAnyAsks() async throws {
        try await EngineRig.run(panels: Self.panels) { rig throws in
            let hub = rig.intercom.peephole
            _ = try await rig.intercom.execute(.picture(Self.kiosk, panel: "gate", want: Self.want(320, 180, live: false)))
            #expect(hub.wantedSize(panel: "gate") == PixelSize(width: 320, height: 180))
            #expect(hub.liveSize(panel: "gate") == nil, "stills alone while nobody asks live")
            let data = try await rig.intercom.execute(.picture(Self.watch, panel: "gate", want: Self.want(200, 400, live: true)))
            #expect(data == .object([("panel", .string("gate")), ("width", .integer(200)), ("height", .integer(400)), ("live", .bool(true))]))
            // Each side on its own: both boxes fit inside the one the stream is decoded at.
            #expect(hub.liveSize(panel: "gate") == PixelSize(width: 320, height: 400))
            #expect(rig.intercom.pictureWants.merged(panel: "gate") == Self.want(320, 400, live: true))
            #expect(hub.wantedSize(panel: "yard") == nil, "another panel is nobody's business")
        }
    }

    @Test func oneFaceStoppingLeavesTheOthersWant() async throws {
        try await EngineRig.run(panels: Self.panels) { rig throws in
            let hub = rig.intercom.peephole
            _ = try await rig.intercom.execute(.picture(Self.kiosk, panel: "gate", want: Self.want(160, 90, live: true)))
            _ = try await rig.intercom.execute(.picture(Self.watch, panel: "gate", want: Self.want(640, 360, live: true)))
            #expect(hub.liveSize(panel: "gate") == PixelSize(width: 640, height: 360))
            let data = try await rig.intercom.execute(.picture(Self.watch, panel: "gate", want: nil))
            #expect(data["width"] == .integer(0))
            #expect(hub.liveSize(panel: "gate") == PixelSize(width: 160, height: 90), "the stream goes on at the size of the one left")
            #expect(rig.intercom.pictureWants.want(Self.watch, panel: "gate") == nil)
            #expect(rig.intercom.pictureWants.want(Self.kiosk, panel: "gate") == Self.want(160, 90, live: true))
            // A face's new want replaces its old one, smaller or not.
            _ = try await rig.intercom.execute(.picture(Self.kiosk, panel: "gate", want: Self.want(80, 45, live: true)))
            #expect(hub.liveSize(panel: "gate") == PixelSize(width: 80, height: 45))
        }
    }

    @Test func unwatchDropsTheSubscribersWants() async throws {
        try await EngineRig.run(panels: Self.panels) { rig throws in
            let hub = rig.intercom.peephole
            for panel in ["gate", "yard"] {
                _ = try await rig.intercom.execute(.picture(Self.watch, panel: panel, want: Self.want(640, 360, live: true)))
            }
            _ = try await rig.intercom.execute(.picture(Self.kiosk, panel: "yard", want: Self.want(160, 90, live: false)))
            _ = try await rig.intercom.execute(.unwatch(Self.watch))
            #expect(rig.intercom.pictureWants.want(Self.watch, panel: "gate") == nil)
            #expect(rig.intercom.pictureWants.want(Self.watch, panel: "yard") == nil)
            #expect(hub.liveSize(panel: "gate") == nil, "nobody looks at gate any more")
            #expect(hub.liveSize(panel: "yard") == nil, "the kiosk asks yard's stills alone")
            #expect(hub.wantedSize(panel: "yard") == PixelSize(width: 160, height: 90))
            // Unwatching someone who wants nothing, or twice, is harmless.
            _ = try await rig.intercom.execute(.unwatch(Self.watch))
            #expect(rig.intercom.pictureWants.merged(panel: "yard") == Self.want(160, 90, live: false))
        }
    }

    /// The last want of a live panel goes: the stream stops and the stills go on at the last size
    /// (the daemon keeps them for the journal).
    @Test func theLastWantGoingDropsALivePanelToItsStills() async throws {
        try await EngineRig.run(panels: Self.panels) { rig throws in
            let hub = rig.intercom.peephole
            _ = try await rig.intercom.execute(.picture(Self.watch, panel: "porch", want: Self.want(640, 360, live: true)))
            #expect(hub.liveSize(panel: "porch") == PixelSize(width: 640, height: 360))
            _ = try await rig.intercom.execute(.picture(Self.watch, panel: "porch", want: nil))
            #expect(hub.liveSize(panel: "porch") == nil)
            #expect(hub.wantedSize(panel: "porch") == PixelSize(width: 640, height: 360))
            #expect(rig.intercom.pictureWants.merged(panel: "porch") == nil)
        }
    }

    @Test func anUnknownPanelOrAnEmptyBoxIsOneLineAndChangesNothing() async throws {
        try await EngineRig.run(panels: Self.panels) { rig throws in
            _ = try await rig.intercom.execute(.picture(Self.kiosk, panel: "gate", want: Self.want(320, 180, live: true)))
            let unknown = await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.picture(Self.kiosk, panel: "nowhere", want: Self.want(320, 180, live: true)))
            }
            #expect(unknown?.description == "no panel 'nowhere'; known: gate, yard, porch")
            #expect(unknown?.exitCode == 64)
            await #expect(throws: IntercomError.self, "stopping a panel it never had is refused as well") {
                try await rig.intercom.execute(.picture(Self.kiosk, panel: "nowhere", want: nil))
            }
            let empty = await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.picture(Self.kiosk, panel: "gate", want: Self.want(0, 180, live: true)))
            }
            #expect(empty?.description == "a picture want needs a width and height of 1 to 4096 pixels, not 0x180")
            await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.picture(Self.kiosk, panel: "gate", want: Self.want(320, 5000, live: true)))
            }
            #expect(rig.intercom.pictureWants.want(Self.kiosk, panel: "nowhere") == nil)
            #expect(rig.intercom.pictureWants.merged(panel: "gate") == Self.want(320, 180, live: true))
            #expect(rig.intercom.peephole.liveSize(panel: "gate") == PixelSize(width: 320, height: 180))
        }
    }

    /// The socket's stand-in subscriber never reaches the engine: the connection puts its own in.
    @Test func aWantWithoutItsSubscriberIsRefused() async throws {
        try await EngineRig.run(panels: Self.panels) { rig throws in
            let refused = await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.picture(.sender, panel: "gate", want: Self.want(320, 180, live: true)))
            }
            #expect(refused?.exitCode == 77)
            #expect(rig.intercom.pictureWants.merged(panel: "gate") == nil)
            #expect(rig.intercom.peephole.wantedSize(panel: "gate") == nil)
            #expect(IntercomCommand.picture(.sender, panel: "gate", want: nil).subscribed(as: Self.kiosk)
                    == .picture(Self.kiosk, panel: "gate", want: nil))
        }
    }

    /// An operator camera's pictures come under its id: a subscriber that shows it may want them,
    /// another may not; one that stopped showing it may still take its want back.
    @Test func aCameraIsWantedByTheSubscriberThatShowsIt() async throws {
        try await EngineRig.runWithOperatorCamera { rig throws in
            _ = try await rig.intercom.execute(.watchCamera(Self.watch, camera: "home:cam:7"))
            _ = try await rig.intercom.execute(.picture(Self.watch, panel: "home:cam:7", want: Self.want(640, 360, live: true)))
            #expect(rig.intercom.peephole.liveSize(panel: "home:cam:7") == PixelSize(width: 640, height: 360))
            await #expect(throws: IntercomError.self, "a camera this subscriber does not show is an unknown panel") {
                try await rig.intercom.execute(.picture(Self.kiosk, panel: "home:cam:7", want: Self.want(160, 90, live: true)))
            }
            _ = try await rig.intercom.execute(.watchCamera(Self.watch, camera: nil))
            _ = try await rig.intercom.execute(.picture(Self.watch, panel: "home:cam:7", want: nil))
            #expect(rig.intercom.peephole.liveSize(panel: "home:cam:7") == nil)
        }
    }

    /// A screen of the engine's own process sets the same table at once, on its thread, and its
    /// `finish` takes its wants away as a connection's close does; the others' stay.
    @Test func anOwnEngineScreenWantsInTheSameTable() async throws {
        try await EngineRig.run(panels: Self.panels) { rig throws in
            let link = LocalLink(rig.intercom)
            link.want(panel: "gate", size: PixelSize(width: 640, height: 360), live: true)
            _ = try await rig.intercom.execute(.picture(Self.kiosk, panel: "gate", want: Self.want(160, 480, live: false)))
            #expect(rig.intercom.peephole.liveSize(panel: "gate") == PixelSize(width: 640, height: 480),
                    "the screen's want and the connection's are merged")
            #expect(rig.intercom.pictureWants.want(link.subscriber, panel: "gate") == Self.want(640, 360, live: true))
            await link.finish()
            #expect(rig.intercom.pictureWants.want(link.subscriber, panel: "gate") == nil)
            #expect(rig.intercom.peephole.liveSize(panel: "gate") == nil, "the kiosk asks stills alone")
            #expect(rig.intercom.peephole.wantedSize(panel: "gate") == PixelSize(width: 160, height: 480))
        }
    }

    /// Faces change their wants at once from many threads: the hub ends with the merge of what is left.
    @Test func facesChangingAtOnceLeaveTheMergeOfWhatIsLeft() async throws {
        try await EngineRig.run(panels: Self.panels) { rig throws in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<48 {
                    let who = Subscriber("face \(i % 4)")
                    let want: PictureWant? = i % 5 == 4 ? nil : Self.want(100 + i, 400 - i, live: i % 3 == 0)
                    group.addTask {
                        if i % 2 == 0 {
                            rig.intercom.pictureWants.set(who, panel: "yard", want)
                        } else {
                            _ = try await rig.intercom.execute(.picture(who, panel: "yard", want: want))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let merged = rig.intercom.pictureWants.merged(panel: "yard")
            if let merged {
                #expect(rig.intercom.peephole.wantedSize(panel: "yard") == PixelSize(width: merged.width, height: merged.height))
            }
            #expect((rig.intercom.peephole.liveSize(panel: "yard") != nil) == (merged?.live == true))
        }
    }
}
