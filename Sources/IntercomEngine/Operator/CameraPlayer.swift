import Foundation

/// An operator camera played into the engine's `peephole` hub under its id, run and cancelled by
/// whoever holds it: the daemon plays one per camera its attached `watch` screens show, beside
/// (not instead of) the streams `watch(panels:)` plays for the kiosks.
public struct CameraPlayer: Sendable {
    let picture: LivePicture

    /// Plays until cancelled (a recording until its end); the decode thread is stopped and waited for.
    public func run() async { await picture.run() }
}

extension Intercom {
    /// A player of `camera` (resolved by `operatorCamera`), as `watchCamera` plays it.
    public func cameraPlayer(_ camera: CameraStream) -> CameraPlayer {
        var picture = LivePicture.camera(camera.id, source: camera.source, call: nil, hub: peephole, logger: logger)
        picture.endsAtEnd = camera.isRecording
        picture.use(services)
        return CameraPlayer(picture: picture)
    }
}
