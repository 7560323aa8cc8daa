import Foundation

/// An operator camera played into the engine's `peephole` hub under its id, run and cancelled by
/// the engine's frame subscriptions: one per camera some subscriber shows (`watchCamera`), beside
/// (not instead of) the streams `watch(panels:)` plays for the panels.
struct CameraPlayer: Sendable {
    let picture: LivePicture

    /// Plays until cancelled (a recording until its end); the decode thread is stopped and waited for.
    func run() async { await picture.run() }
}

extension Intercom {
    /// A player of `camera` (resolved by `operatorCamera`). A stream that fails is one line on the
    /// viewer's status and is tried again by itself; a recording ends with "the recording ended".
    func cameraPlayer(_ camera: CameraStream) -> CameraPlayer {
        var picture = LivePicture.camera(camera.id, source: camera.source, call: nil, hub: peephole, logger: logger)
        picture.endsAtEnd = camera.isRecording
        picture.use(services)
        return CameraPlayer(picture: picture)
    }
}
