import Foundation
import IntercomBase
import IntercomImaging
import IntercomPanel

/// The subscriptions part: what the panels show without a call. It owns the panels' alarm streams
/// (the daemon's), the pictures each face subscribes to (`watch`, `watchCamera`, `picture`,
/// `unwatch`, merged in `FrameSubscriptions` and `PictureWants`) and the tasks that play them.
/// An actor of its own, because `watch` waits for the streams it replaced while other faces keep
/// subscribing: the table and the set of streams change before any wait, so the later union wins.
/// Its tasks are the engine's (`tasks`), so `Intercom.stop` ends them with the rest.
actor Subscriptions {
    /// What a command needs of the engine at the moment it comes (the config changes on SIGHUP,
    /// the operators' cameras are the operator part's).
    struct Engine: Sendable {
        var panelNames: [String] { panels.map(\.name) }
        var panels: [PanelConfig]
        var services: IntercomServices
        var camera: @Sendable (_ id: String, OperatorCameraView) async throws(IntercomError) -> CameraPlayer
    }

    private let clients: [String: any PanelService]
    /// Peephole pictures of ringing calls and watched panels (the engine's `peephole`).
    let hub: PeepholeHub
    let pictureWants: PictureWants
    private let tasks: TaskOwner
    private let bus: EventBus
    private let logger: Logger
    private let clock: any EngineClock
    private let decodeSize: PixelSize?
    private var watchingAlarms = false
    /// The snapshot pictures of `watch`.
    private(set) var watchers: [Task<Void, Never>] = []
    /// The live streams of `watch`; each stops its decode thread before its task ends.
    private(set) var liveWatchers: [Task<Void, Never>] = []
    /// What each face shows without a call, and the panels and cameras played for all of them.
    private(set) var table = FrameSubscriptions()

    init(clients: [String: any PanelService], hub: PeepholeHub, pictureWants: PictureWants, tasks: TaskOwner,
         bus: EventBus, logger: Logger, clock: any EngineClock, decodeSize: PixelSize?) {
        self.clients = clients
        self.hub = hub
        self.pictureWants = pictureWants
        self.tasks = tasks
        self.bus = bus
        self.logger = logger
        self.clock = clock
        self.decodeSize = decodeSize
    }

    /// Forgets every subscription (the engine stops; the tasks themselves are ended by its `tasks`).
    func reset() {
        watchers = []
        liveWatchers = []
        table = FrameSubscriptions()
    }

    /// Carries out a subscription command; its reply data.
    func execute(_ command: IntercomCommand, _ engine: Engine) async throws(IntercomError) -> JSONValue {
        switch command {
        case .watch(let subscriber, let names, let fps, let whole):
            try Self.check(subscriber)
            let known = engine.panelNames
            if let unknown = names.first(where: { !known.contains($0) }) {
                throw .unknownPanel("no panel '\(unknown)'; known: \(known.joined(separator: ", "))")
            }
            // The socket refuses other rates in one line; a face of this process gets the nearest.
            table.set(subscriber, .init(names: names, fps: min(30, max(0.2, fps)), whole: whole))
            await playWatched(engine)
            return .object([("panels", .array(names.map { .string($0) }))])
        case .watchCamera(let subscriber, let camera, let at):
            try Self.check(subscriber)
            // Noted before the operator is asked, so no other subscriber leaving meanwhile stops it.
            let before = table.cameras[subscriber]
            table.set(subscriber, camera: camera)
            if let camera {
                do {
                    let view: OperatorCameraView = at.map { .archive(from: $0, seconds: Intercom.archiveWindowSeconds) } ?? .live
                    try await play(camera: camera, view: view, engine)
                } catch {
                    table.set(subscriber, camera: before)
                    throw error
                }
            }
            if let before, before != camera { await stopUnwatched(camera: before) }
            return .object([("camera", camera.map { .string($0) } ?? .null)])
        case .picture(let subscriber, let panel, let want):
            try Self.check(subscriber)
            try checkPicture(subscriber, panel: panel, want: want, known: engine.panelNames)
            pictureWants.set(subscriber, panel: panel, want)
            return .object([("panel", .string(panel)), ("width", .integer(want?.width ?? 0)),
                            ("height", .integer(want?.height ?? 0)), ("live", .bool(want?.live ?? false))])
        case .unwatch(let subscriber):
            try Self.check(subscriber)
            pictureWants.remove(subscriber)
            let camera = table.remove(subscriber)
            await playWatched(engine)
            if let camera { await stopUnwatched(camera: camera) }
            return .object([])
        default:
            preconditionFailure("not a subscription: \(command)")
        }
    }

    func shows(_ subscriber: Subscriber, camera id: String) -> Bool { table.shows(subscriber, camera: id) }

    /// A subscription names who holds it: the socket's stand-in is replaced by the connection's own.
    private static func check(_ subscriber: Subscriber) throws(IntercomError) {
        if subscriber == .sender { throw .refused("a frame subscription needs its subscriber (the control connection puts its own in)") }
    }

    /// A picture want names a panel the engine has, or the operator camera `subscriber` shows, in a
    /// box of 1 to 4096 pixels a side. Taking back a want the subscriber holds is always allowed
    /// (a camera it stopped showing, a panel a reload took away).
    private func checkPicture(_ subscriber: Subscriber, panel: String, want: PictureWant?, known: [String]) throws(IntercomError) {
        if let want, !(1...PictureWant.largest).contains(want.width) || !(1...PictureWant.largest).contains(want.height) {
            throw .refused("a picture want needs a width and height of 1 to \(PictureWant.largest) pixels, not \(want.width)x\(want.height)")
        }
        guard !known.contains(panel), !table.shows(subscriber, camera: panel),
              want != nil || pictureWants.want(subscriber, panel: panel) == nil else { return }
        throw .unknownPanel("no panel '\(panel)'; known: \(known.joined(separator: ", "))")
    }

    /// Plays the union of the subscribers' panels, if it changed.
    private func playWatched(_ engine: Engine) async {
        let union = table.union
        guard union != table.applied else { return }
        table.applied = union
        await watch(panels: union.names, fps: union.fps, fullSize: union.whole,
                    live: union.names.isEmpty ? nil : union.whole ? .main : .sub, engine)
    }

    /// Starts `camera` in `view` unless it plays so already; another view (a recording from another
    /// moment) restarts it, as the hub keeps one picture per id. Throws the operator's one line.
    private func play(camera id: String, view: OperatorCameraView, _ engine: Engine) async throws(IntercomError) {
        guard table.players[id]?.view != view else { return }
        let player = try await engine.camera(id, view)
        let old = table.players[id]?.task
        if let task = tasks.start(nil, { await player.run() }) {
            table.players[id] = (view, task)
        } else {
            table.players[id] = nil
        }
        old?.cancel()
        await old?.value
    }

    /// Stops camera `id` once no subscriber shows it; returns when its player has stopped.
    private func stopUnwatched(camera id: String) async {
        guard !table.showsCamera(id), let player = table.players.removeValue(forKey: id) else { return }
        player.task.cancel()
        await player.task.value
    }

    /// Shows panels without a call (the union of the subscribers' `watch` commands) in the hub:
    /// each panel's `live` stream when it has one and a viewer asked for a size (`PeepholeHub.want`),
    /// and its snapshots polled at `fps` until the stream plays and whenever it does not. It replaces
    /// the set, and returns once the streams it replaced have stopped. `fullSize` decodes snapshots
    /// whole (a pixel-mode picture over the whole window) instead of at most 640×480.
    func watch(panels names: [String], fps: Double, fullSize: Bool, live: LiveStreamChoice?, _ engine: Engine) async {
        for task in watchers { task.cancel() }
        let stopping = liveWatchers
        for task in stopping { task.cancel() }
        watchers = names.compactMap { name in
            guard let client = clients[name] else { return nil }
            let peephole = Peephole(panel: client, call: nil, fps: fps, decodeSize: fullSize ? nil : decodeSize,
                                    hub: hub, logger: logger, clock: clock)
            return tasks.start { await peephole.run(report: { _, _, _ in }) }
        }
        liveWatchers = live.map { choice in
            names.compactMap { name in
                LivePicture.panel(name, in: engine.panels, stream: choice, call: nil, hub: hub, logger: logger,
                                  services: engine.services).flatMap { picture in tasks.start { await picture.run() } }
            }
        } ?? []
        for task in stopping { await task.value }
    }

    /// Follows every panel's alarm stream (button, motion, door relay) and its reachability,
    /// reported as `panel_event`, `panel_unreachable` and `panel_reachable`.
    func watchAlarms() {
        guard !watchingAlarms else { return }
        watchingAlarms = true
        for (name, client) in clients.sorted(by: { $0.key < $1.key }) {
            let stream = client.alarmFeed()
            let bus = bus, logger = logger
            tasks.start {
                // The stream object lives as long as this task reads it.
                for await event in stream.events {
                    switch event {
                    case .connected:
                        logger.info("panel \(name): alarm stream connected")
                    case .alarm(let alarm):
                        // A relay line names its door (relay 1 main, 2 alt, 3 light); one event per relay it lists.
                        let doors: [String?] = alarm.doors.isEmpty ? [nil] : alarm.doors.map(\.description)
                        for door in doors {
                            bus.publish(IntercomEvent(.panelEvent(panel: name, kind: alarm.kind.rawValue, state: alarm.active ? "on" : "off",
                                                                  door: door)))
                        }
                    case .unreachable(let error):
                        bus.publish(IntercomEvent(.panelUnreachable(panel: name, error: error.description)))
                    case .reachable:
                        bus.publish(IntercomEvent(.panelReachable(panel: name)))
                    case .noAlarmStream(let error):
                        // No event in the vocabulary fits (the panel is reachable): said once, in the log.
                        logger.warning("\(error)")
                    }
                }
                withExtendedLifetime(stream) {}
            }
        }
    }
}

extension Subscriptions {
    /// The panels played for the subscribers now (tests).
    var watchedUnion: FrameSubscriptions.Panels { table.applied }

    /// The cameras played for the subscribers now (tests).
    var playingCameras: [String] { table.players.keys.sorted() }
}
