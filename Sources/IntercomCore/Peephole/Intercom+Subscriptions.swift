import Foundation
import IntercomBase

/// The frame subscriptions as commands (`watch`, `watchCamera`, `picture`, `unwatch`): every face (a
/// screen's own engine, each control connection) subscribes under its own `Subscriber`, and the engine
/// keeps the union (`FrameSubscriptions`, `PictureWants`), so one face leaving never stops what another
/// still shows.
extension Intercom {
    /// Carries out a subscription command; its reply data. Needs no phone: `intercom watch` starts none.
    func subscription(_ command: IntercomCommand) async throws(IntercomError) -> JSONValue {
        switch command {
        case .watch(let subscriber, let names, let fps, let whole):
            try Self.check(subscriber)
            let known = config.panels.map(\.name)
            if let unknown = names.first(where: { !known.contains($0) }) {
                throw .unknownPanel("no panel '\(unknown)'; known: \(known.joined(separator: ", "))")
            }
            // The socket refuses other rates in one line; a face of this process gets the nearest.
            subscriptions.set(subscriber, .init(names: names, fps: min(30, max(0.2, fps)), whole: whole))
            await playWatched()
            return .object([("panels", .array(names.map { .string($0) }))])
        case .watchCamera(let subscriber, let camera, let at):
            try Self.check(subscriber)
            // Noted before the operator is asked, so no other subscriber leaving meanwhile stops it.
            let before = subscriptions.cameras[subscriber]
            subscriptions.set(subscriber, camera: camera)
            if let camera {
                do {
                    try await play(camera: camera, view: at.map { .archive(from: $0, seconds: Self.archiveWindowSeconds) } ?? .live)
                } catch {
                    subscriptions.set(subscriber, camera: before)
                    throw error
                }
            }
            if let before, before != camera { await stopUnwatched(camera: before) }
            return .object([("camera", camera.map { .string($0) } ?? .null)])
        case .picture(let subscriber, let panel, let want):
            try Self.check(subscriber)
            try checkPicture(subscriber, panel: panel, want: want)
            pictureWants.set(subscriber, panel: panel, want)
            return .object([("panel", .string(panel)), ("width", .integer(want?.width ?? 0)),
                            ("height", .integer(want?.height ?? 0)), ("live", .bool(want?.live ?? false))])
        case .unwatch(let subscriber):
            try Self.check(subscriber)
            pictureWants.remove(subscriber)
            let camera = subscriptions.remove(subscriber)
            await playWatched()
            if let camera { await stopUnwatched(camera: camera) }
            return .object([])
        default:
            preconditionFailure("not a subscription: \(command)")
        }
    }

    /// Whether `subscriber` shows camera `id` (a control connection may then ask for its pictures).
    public func shows(_ subscriber: Subscriber, camera id: String) -> Bool { subscriptions.shows(subscriber, camera: id) }

    /// The panels played for the subscribers now (tests).
    var watchedUnion: FrameSubscriptions.Panels { subscriptions.applied }

    /// The cameras played for the subscribers now (tests).
    var playingCameras: [String] { subscriptions.players.keys.sorted() }

    /// A subscription names who holds it: the socket's stand-in is replaced by the connection's own.
    private static func check(_ subscriber: Subscriber) throws(IntercomError) {
        if subscriber == .sender { throw .refused("a frame subscription needs its subscriber (the control connection puts its own in)") }
    }

    /// A picture want names a panel the engine has, or the operator camera `subscriber` shows, in a
    /// box of 1 to 4096 pixels a side. Taking back a want the subscriber holds is always allowed
    /// (a camera it stopped showing, a panel a reload took away).
    private func checkPicture(_ subscriber: Subscriber, panel: String, want: PictureWant?) throws(IntercomError) {
        if let want, !(1...PictureWant.largest).contains(want.width) || !(1...PictureWant.largest).contains(want.height) {
            throw .refused("a picture want needs a width and height of 1 to \(PictureWant.largest) pixels, not \(want.width)x\(want.height)")
        }
        let known = config.panels.map(\.name)
        guard !known.contains(panel), !subscriptions.shows(subscriber, camera: panel),
              want != nil || pictureWants.want(subscriber, panel: panel) == nil else { return }
        throw .unknownPanel("no panel '\(panel)'; known: \(known.joined(separator: ", "))")
    }

    /// Plays the union of the subscribers' panels, if it changed. The table and `watch`'s set of
    /// streams change before any wait, so two subscribers changing at once leave the later union.
    private func playWatched() async {
        let union = subscriptions.union
        guard union != subscriptions.applied else { return }
        subscriptions.applied = union
        await watch(panels: union.names, fps: union.fps, fullSize: union.whole,
                    live: union.names.isEmpty ? nil : union.whole ? .main : .sub)
    }

    /// Starts `camera` in `view` unless it plays so already; another view (a recording from another
    /// moment) restarts it, as the hub keeps one picture per id. Throws the operator's one line.
    private func play(camera id: String, view: OperatorCameraView) async throws(IntercomError) {
        guard subscriptions.players[id]?.view != view else { return }
        let player = cameraPlayer(try await operatorCamera(id, view))
        let old = subscriptions.players[id]?.task
        if let task = tasks.start(nil, { await player.run() }) {
            subscriptions.players[id] = (view, task)
        } else {
            subscriptions.players[id] = nil
        }
        old?.cancel()
        await old?.value
    }

    /// Stops camera `id` once no subscriber shows it; returns when its player has stopped.
    private func stopUnwatched(camera id: String) async {
        guard !subscriptions.showsCamera(id), let player = subscriptions.players.removeValue(forKey: id) else { return }
        player.task.cancel()
        await player.task.value
    }
}
