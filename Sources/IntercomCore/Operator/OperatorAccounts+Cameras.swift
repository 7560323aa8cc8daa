import Foundation
import IntercomBase
import IntercomOperator
import IntercomVideo

/// What of an operator camera to play: its live stream, its recording from a moment, or one picture.
public enum OperatorCameraView: Sendable, Equatable {
    case live
    case archive(from: Date, seconds: Int)
    case preview(at: Date?)
}

/// An operator camera resolved to what to play (the operator asked once), for a `CameraPlayer`.
struct CameraStream: Sendable {
    let id: String
    let source: VideoSource
    /// A recording (`--at`): it ends at its end instead of being tried again.
    let isRecording: Bool
}

/// Operator cameras (`OPERATOR:cam:ID`, as `intercom cameras` lists them) as video sources: the
/// operator is asked for the camera's current URL and token each time (tokens expire). What an
/// operator call shows while it rings comes from the cached camera map instead: the operator's
/// push message would carry a snapshot link, which a terminal never gets, and a ringing call
/// never waits on the operator's API.
extension OperatorAccounts {
    /// Whether `name` is an operator camera id of a configured operator (a panel of that name wins).
    func isCamera(_ name: String, in config: IntercomConfig) -> Bool {
        let owner = OperatorItemID.parseCamera(name)?.operatorName ?? OperatorItemID.parseEntrance(name)?.operatorName
        return config.panel(named: name) == nil && owner.flatMap { config.operator(named: $0) } != nil
    }

    /// The source to open for `view` of camera `id`, of the entrance camera of operator door `id`
    /// (`OPERATOR:DOMOPHONE:DOOR`: the camera its panel has in the operator's camera map, the one
    /// its calls show: the first entrance's when the panel serves several), or of one entrance's
    /// camera (`OPERATOR:entrance:ID`); throws one line a user can act on.
    func cameraSource(_ id: String, _ view: OperatorCameraView, in config: IntercomConfig) async throws(IntercomError) -> VideoSource {
        let door = OperatorItemID.parseDoor(id)
        let entrance = OperatorItemID.parseEntrance(id)
        guard let name = OperatorItemID.parseCamera(id)?.operatorName ?? door?.operatorName ?? entrance?.operatorName,
              let op = config.operator(named: name) else {
            throw .unknownPanel("no camera \"\(id)\": operator cameras are OPERATOR:cam:ID, OPERATOR:entrance:ID (or a door, "
                                + "OPERATOR:PANEL:DOOR); see 'intercom cameras'")
        }
        let camera: OperatorCamera?
        var gap: String?
        do {
            let client = try client(op)
            if let door {
                camera = try await client.panelCameras()[door.domophoneId]
            } else if let entrance {
                camera = try await client.panelCameras().camera(entranceId: entrance.entranceId)?.camera
            } else {
                camera = try await client.camera(id: OperatorItemID.parseCamera(id)?.cameraId ?? "")
            }
            // A window the recording keeps nothing of says where it resumes (best effort: no ranges, no refusal).
            if case .archive(let from, let seconds) = view, camera != nil, let cameraId = OperatorItemID.parseCamera(id)?.cameraId {
                gap = (try? await client.archiveRanges(cameraId: cameraId))?
                    .gapLine("camera \(id)", from: from, to: from.addingTimeInterval(TimeInterval(seconds)))
            }
        } catch {
            throw .operatorRequest(error)
        }
        if let gap { throw .noRecording(gap) }
        guard let camera else {
            if let entrance {
                throw .unknownPanel("operator \(op.name)'s camera map names no entrance \(entrance.entranceId); see 'intercom cameras'")
            }
            throw .unknownPanel(door == nil ? "operator \(op.name) has no camera \(OperatorItemID.parseCamera(id)?.cameraId ?? id); see 'intercom cameras'"
                : "operator \(op.name)'s camera map names no camera for panel \(door?.domophoneId ?? "") (door \(id)): no camera to show")
        }
        let urls: OperatorCameraURL
        switch OperatorCameraURL.of(camera) {
        case .success(let found): urls = found
        case .failure(let problem): throw .cameraUnplayable(problem.description)
        }
        switch view {
        case .live: return VideoSource(url: urls.live)
        case .archive(let from, let seconds): return VideoSource(url: urls.archive(from: from, seconds: seconds))
        case .preview(let at): return VideoSource(url: urls.preview(at: at))
        }
    }

    /// The camera to resolve for `view` of `id` (a recording ends at its end).
    func cameraStream(_ id: String, _ view: OperatorCameraView, in config: IntercomConfig) async throws(IntercomError) -> CameraStream {
        let isRecording = if case .archive = view { true } else { false }
        return CameraStream(id: id, source: try await cameraSource(id, view, in: config), isRecording: isRecording)
    }

    /// The live picture of the entrance camera of an operator call's panel into `hub`, from the
    /// cached map; nil when the map names no camera for it or the camera's server is not one we play.
    func peephole(call id: CallID, door: DoorListing, hub: PeepholeHub) -> LivePicture? {
        guard let domophone = door.domophoneId, let camera = doors.camera(owner: door.owner, domophoneId: domophone) else { return nil }
        switch OperatorCameraURL.of(camera) {
        case .success(let urls):
            var picture = LivePicture.camera(door.id, source: VideoSource(url: urls.live), call: id, hub: hub, logger: logger)
            picture.use(services)
            return picture
        case .failure(let problem):
            logger.info("call \(id) from \(door.id): \(problem.description); it rings without a picture")
            return nil
        }
    }
}
