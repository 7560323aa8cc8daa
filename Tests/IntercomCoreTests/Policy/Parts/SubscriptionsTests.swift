import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomPanel
import IntercomTestSupport
import Testing

/// The subscriptions part without an engine: it plays the union of its subscribers' panels on the
/// tasks of the owner it is given, keeps a camera the operator refused out of its table, reports
/// the alarm streams on the bus, and leaves nothing running once the owner ends.
@Suite struct SubscriptionsTests {
    static let panels = ["gate", "yard"].map { PanelConfig(name: $0, url: "http://127.0.0.1:9") }

    struct Part {
        let part: Subscriptions
        let engine: Subscriptions.Engine
        let tasks: TaskOwner
        let census: TaskCensus
        let clients: [String: FakePanel]
        let bus: EventBus
    }

    static func part() -> Part {
        let clock = ManualClock()
        let clients = Dictionary(uniqueKeysWithValues: panels.map { ($0.name, FakePanel(name: $0.name)) })
        let census = TaskCensus()
        let tasks = TaskOwner("subscriptions", census: census)
        let hub = PeepholeHub()
        let bus = EventBus()
        let part = Subscriptions(clients: clients, hub: hub, pictureWants: PictureWants(hub: hub), tasks: tasks, bus: bus,
                                 logger: .silent, clock: clock, decodeSize: nil)
        let services = IntercomServices(startPhone: { _, _ in FakePhone() }, panel: { FakePanel(name: $0.name) },
                                        operatorClient: { config, _, _ in FakeOperator().client(config) },
                                        video: FakeVideo(), clock: clock)
        let engine = Subscriptions.Engine(panels: panels, services: services) {
            (id: String, _: OperatorCameraView) async throws(IntercomError) -> CameraPlayer in
            throw .refused("no camera \(id) here")
        }
        return Part(part: part, engine: engine, tasks: tasks, census: census, clients: clients, bus: bus)
    }

    @Test func thePartPlaysTheUnionOnItsOwnersTasks() async throws {
        let p = Self.part()
        try await withCleanup({ p.tasks.close(); await p.tasks.end() }) {
            _ = try await p.part.execute(.watch(Subscriber("a"), panels: ["gate"], fps: 1), p.engine)
            _ = try await p.part.execute(.watch(Subscriber("b"), panels: ["gate", "yard"], fps: 50), p.engine)
            #expect(await p.part.watchedUnion == .init(names: ["gate", "yard"], fps: 30, whole: false), "the rate is capped at 30")
            #expect(await p.part.watchers.count == 2)
            // Beside each panel's snapshots, its sub stream (a default panel has one): all on the owner's tasks.
            #expect(await p.part.liveWatchers.count == 2)
            #expect(p.census.running("subscriptions") == 4)
            await #expect(throws: IntercomError.refused("no camera cam:1 here")) {
                try await p.part.execute(.watchCamera(Subscriber("b"), camera: "cam:1"), p.engine)
            }
            #expect(await !p.part.shows(Subscriber("b"), camera: "cam:1"), "a refused camera is not shown")
            _ = try await p.part.execute(.unwatch(Subscriber("b")), p.engine)
            #expect(await p.part.watchedUnion == .init(names: ["gate"], fps: 1, whole: false))
        }
        #expect(p.census.running("subscriptions") == 0, "the owner's end stops every picture")
    }

    @Test func alarmStreamsAreFollowedOnceAndReportedOnTheBus() async throws {
        let p = Self.part()
        let events = EventRecorder(p.bus.subscribe())
        try await withCleanup({ p.tasks.close(); await p.tasks.end() }) {
            await p.part.watchAlarms()
            await p.part.watchAlarms()
            let gate = try #require(p.clients["gate"])
            try await gate.alarmFeeds.wait("the alarm feed opened") { $0.first }
            #expect(gate.alarmFeeds.all == [1], "a second call opens no second stream")
            gate.sendAlarm(.unreachable(.unreachable("gone")))
            _ = try await events.wait("panel_unreachable") { event -> Bool? in
                if case .panelUnreachable("gate", _) = event.kind { true } else { nil }
            }
        }
    }
}
