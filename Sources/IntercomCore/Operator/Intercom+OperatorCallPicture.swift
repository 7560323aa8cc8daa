import Foundation
import IntercomBase
import IntercomOperator
import IntercomPhone
import IntercomVideo
import IntercomModel

/// What an operator call shows while it rings. The operator's push message would carry a
/// snapshot link of the call, which a terminal never gets; its camera map (`cctv/camMap`) names
/// each entrance panel's camera instead, and that camera's live HLS plays under the call's name
/// (the operator door, `home:1:0`) as a panel's RTSP stream plays under the panel's.
extension Intercom {
    /// Keeps the operator's entrance cameras for its calls. A server without a camera map keeps
    /// none: its calls ring without a picture, as before.
    func refreshPanelCameras(_ name: String, client: any OperatorService) async {
        do {
            operatorDoors.replaceCameras(name, with: try await client.panelCameras())
        } catch {
            logger.info("operator \(name): no entrance cameras, so its calls ring without a picture: \(error)")
            operatorDoors.replaceCameras(name, with: OperatorCameraMap())
        }
    }

    /// Plays the entrance camera of an operator call's panel until the call's own video comes
    /// (or the call ends); nothing when the map names no camera for it or the camera's server is
    /// not one we play. From the cached map: a ringing call never waits on the operator's API.
    func startOperatorPeephole(_ id: CallID, door: DoorListing, phone: any PhoneService) {
        guard let domophone = door.domophoneId,
              let camera = operatorDoors.camera(owner: door.owner, domophoneId: domophone) else { return }
        let urls: OperatorCameraURL
        switch OperatorCameraURL.of(camera) {
        case .success(let found): urls = found
        case .failure(let problem):
            logger.info("call \(id) from \(door.id): \(problem.description); it rings without a picture")
            return
        }
        var playing = LivePicture.camera(door.id, source: VideoSource(url: urls.live), call: id, hub: peephole, logger: logger)
        playing.use(services)
        let picture = playing
        calls[id]?.start(CallSession.livePicture) { await picture.run(callVideo: phone.video) }
    }
}
