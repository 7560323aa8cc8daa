import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomOperator
import Testing

/// The frame subscriptions as commands, on fakes: each face (a screen of its own engine, a
/// control connection) subscribes under its own `Subscriber`, and the engine plays the union of
/// what they all show, so one face changing or leaving never stops what another still shows.
@Suite(.removesTestFolders) struct FrameSubscriptionPolicyTests {
    static let panels = ["gate", "yard", "porch"].map { PanelConfig(name: $0, url: "http://127.0.0.1:9") }
    static let kiosk = Subscriber("kiosk")
    static let watch = Subscriber("watch")

    static func union(_ rig: EngineRig) async -> FrameSubscriptions.Panels { await rig.intercom.subscriptions.watchedUnion }

    @Test func theEnginePlaysTheUnionOfEverySubscribersPanels() async throws {
        try await EngineRig.run(panels: Self.panels) { rig throws in
            _ = try await rig.intercom.execute(.watch(Self.kiosk, panels: ["gate", "yard"], fps: 1))
            _ = try await rig.intercom.execute(.watch(Self.watch, panels: ["yard", "porch"], fps: 4, whole: true))
            #expect(await Self.union(rig) == .init(names: ["gate", "yard", "porch"], fps: 4, whole: true))
            #expect(await rig.intercom.subscriptions.watchers.count == 3, "a panel two subscribers show is polled once")
            // The faster, whole-picture subscriber leaves: the other's panels go on at its own rate.
            _ = try await rig.intercom.execute(.unwatch(Self.watch))
            #expect(await Self.union(rig) == .init(names: ["gate", "yard"], fps: 1, whole: false))
            #expect(await rig.intercom.subscriptions.watchers.count == 2)
            // No panels is no subscription: nothing plays once the last subscriber shows none.
            _ = try await rig.intercom.execute(.watch(Self.kiosk, panels: [], fps: 1))
            #expect(await Self.union(rig) == .nothing)
            #expect(await rig.intercom.subscriptions.watchers.isEmpty)
        }
    }

    @Test func aSubscribersNewPanelsReplaceItsOldOnesAndAnUnknownPanelChangesNothing() async throws {
        try await EngineRig.run(panels: Self.panels) { rig throws in
            _ = try await rig.intercom.execute(.watch(Self.kiosk, panels: ["gate"], fps: 1))
            _ = try await rig.intercom.execute(.watch(Self.kiosk, panels: ["porch"], fps: 2))
            #expect(await Self.union(rig) == .init(names: ["porch"], fps: 2, whole: false))
            let error = await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.watch(Self.watch, panels: ["porch", "nowhere"], fps: 1))
            }
            #expect(error?.description == "no panel 'nowhere'; known: gate, yard, porch")
            #expect(error?.exitCode == 64)
            #expect(await Self.union(rig) == .init(names: ["porch"], fps: 2, whole: false))
            // Unwatching someone who shows nothing, or twice, is harmless.
            _ = try await rig.intercom.execute(.unwatch(Self.watch))
            _ = try await rig.intercom.execute(.unwatch(Self.watch))
            #expect(await Self.union(rig) == .init(names: ["porch"], fps: 2, whole: false))
        }
    }

    /// Faces change their subscriptions at once (the engine is an actor, but `watch` waits for the
    /// streams it replaced): whatever order they land in, what plays is the union of what is left.
    @Test func subscribersChangingAtOnceLeaveTheUnionOfWhatIsLeft() async throws {
        try await EngineRig.run(panels: Self.panels) { rig throws in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<24 {
                    let who = Subscriber("face \(i % 4)"), panel = Self.panels[i % 3].name
                    group.addTask {
                        if i % 5 == 4 {
                            _ = try await rig.intercom.execute(.unwatch(who))
                        } else {
                            _ = try await rig.intercom.execute(.watch(who, panels: [panel], fps: Double(1 + i % 4), whole: i % 7 == 0))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let table = await rig.intercom.subscriptions.table.union
            #expect(await Self.union(rig) == table)
            #expect(await rig.intercom.subscriptions.watchers.count == table.names.count)
        }
    }

    /// The socket's stand-in subscriber never reaches the engine: the connection puts its own in.
    @Test func aSubscriptionWithoutItsSubscriberIsRefused() async throws {
        try await EngineRig.run(panels: Self.panels) { rig throws in
            await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.watch(.sender, panels: ["gate"], fps: 1))
            }
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.unwatch(.sender)) }
            #expect(await Self.union(rig) == .nothing)
        }
    }

    /// An operator camera plays once however many subscribers show it, and stops with the last;
    /// one that cannot be played is one line and leaves the subscriber's camera as it was.
    @Test func aCameraPlaysWhileAnySubscriberShowsIt() async throws {
        try await EngineRig.runWithOperatorCamera { rig throws in
            _ = try await rig.intercom.execute(.watchCamera(Self.kiosk, camera: "home:cam:7"))
            _ = try await rig.intercom.execute(.watchCamera(Self.watch, camera: "home:cam:7"))
            #expect(await rig.intercom.subscriptions.playingCameras == ["home:cam:7"])
            #expect(await rig.intercom.shows(Self.watch, camera: "home:cam:7"))
            let error = await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.watchCamera(Self.watch, camera: "home:cam:99"))
            }
            #expect(error?.description.contains("no camera 99") == true, "\(String(describing: error))")
            #expect(await rig.intercom.shows(Self.watch, camera: "home:cam:7"), "a refused camera keeps the one shown")
            _ = try await rig.intercom.execute(.unwatch(Self.kiosk))
            #expect(await rig.intercom.subscriptions.playingCameras == ["home:cam:7"], "the other subscriber still shows it")
            #expect(await !rig.intercom.shows(Self.kiosk, camera: "home:cam:7"))
            _ = try await rig.intercom.execute(.watchCamera(Self.watch, camera: nil))
            #expect(await rig.intercom.subscriptions.playingCameras.isEmpty)
        }
    }

    /// The engine keeps no subscription past its stop, and a face that unsubscribes after it
    /// (a connection closing as the daemon stops) is answered, not left waiting.
    @Test func stopEndsEverySubscription() async throws {
        let rig = try await EngineRig.start(panels: Self.panels)
        _ = try await rig.intercom.execute(.watch(Self.kiosk, panels: ["gate"], fps: 1))
        await rig.stop()
        #expect(await rig.intercom.subscriptions.watchers.isEmpty)
        #expect(await Self.union(rig) == .nothing)
        _ = try await rig.intercom.execute(.unwatch(Self.kiosk))
        #expect(await Self.union(rig) == .nothing)
    }
}
