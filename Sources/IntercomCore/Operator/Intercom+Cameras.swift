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

/// Operator cameras (`OPERATOR:cam:ID`, as `intercom cameras` lists them) as video sources: the
/// operator is asked for the camera's current URL and token each time (tokens expire).
extension Intercom {
    /// How long an archive window `watch --at` asks for.
    public static let archiveWindowSeconds = 3600

    /// Whether `name` is an operator camera id of a configured operator (a panel of that name wins).
    public func isOperatorCamera(_ name: String) -> Bool {
        let owner = OperatorItemID.parseCamera(name)?.operatorName ?? OperatorItemID.parseEntrance(name)?.operatorName
        return config.panel(named: name) == nil && owner.flatMap { config.operator(named: $0) } != nil
    }

    /// The source to open for `view` of camera `id`, of the entrance camera of operator door `id`
    /// (`OPERATOR:DOMOPHONE:DOOR`: the camera its panel has in the operator's camera map, the one
    /// its calls show: the first entrance's when the panel serves several), or of one entrance's
    /// camera (`OPERATOR:entrance:ID`); throws one line a user can act on.
    public func operatorCameraSource(_ id: String, _ view: OperatorCameraView) async throws(IntercomError) -> VideoSource {
        let door = OperatorItemID.parseDoor(id)
        let entrance = OperatorItemID.parseEntrance(id)
        guard let name = OperatorItemID.parseCamera(id)?.operatorName ?? door?.operatorName ?? entrance?.operatorName,
              let op = config.operator(named: name) else {
            throw .unknownPanel("no camera \"\(id)\": operator cameras are OPERATOR:cam:ID, OPERATOR:entrance:ID (or a door, "
                                + "OPERATOR:PANEL:DOOR); see 'intercom cameras'")
        }
        let camera: OperatorCamera?
        do {
            let client = try services.operatorClient(op, try operatorTokens.token(op.name), operatorTokens)
            if let door {
                camera = try await client.panelCameras()[door.domophoneId]
            } else if let entrance {
                camera = try await client.panelCameras().camera(entranceId: entrance.entranceId)?.camera
            } else {
                camera = try await client.camera(id: OperatorItemID.parseCamera(id)?.cameraId ?? "")
            }
        } catch {
            throw .operatorRequest(error)
        }
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
}

/// An operator camera resolved to what to play (the operator asked once), for a `CameraPlayer`.
struct CameraStream: Sendable {
    let id: String
    let source: VideoSource
    /// A recording (`--at`): it ends at its end instead of being tried again.
    let isRecording: Bool
}

extension Intercom {
    /// Asks the operator for the camera's address; throws one line (unknown, not logged in, unplayable).
    func operatorCamera(_ id: String, _ view: OperatorCameraView) async throws(IntercomError) -> CameraStream {
        let isRecording = if case .archive = view { true } else { false }
        return CameraStream(id: id, source: try await operatorCameraSource(id, view), isRecording: isRecording)
    }
}
