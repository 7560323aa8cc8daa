import Foundation
import IntercomBase

/// The frame subscriptions as commands (`watch`, `watchCamera`, `unwatch`): every face (a screen's
/// own engine, each control connection) subscribes under its own `Subscriber`, and the engine keeps
/// the union (`FrameSubscriptions`), so one face leaving never stops what another still shows.
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
        case .unwatch(let subscriber):
            try Self.check(subscriber)
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
