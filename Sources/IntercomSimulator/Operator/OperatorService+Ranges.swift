import Foundation
import IntercomBase

/// `cctv/ranges` as server/mobile/cctv/ranges.php: any camera the server has by `cameraId` (404 for
/// none), answered with its DVR's `recording_status.json`: `[{stream, ranges: [{from, duration}]}]`.
/// Here the recording is what the camera's kept segments reach (about the last minute), one piece;
/// with cameras off the DVR answers nothing and neither does the server (200 without data).
extension OperatorService {
    func ranges(_ body: JSONValue) -> OperatorReply {
        guard let id = body["cameraId"]?.loose.flatMap({ Int($0) }),
              houses.contains(where: { $0.entrances.contains { $0.cameraId == id } }) else {
            return OperatorEnvelope.error(404)
        }
        guard let video, let kept = video.keptRange(cameraId: id) else { return OperatorEnvelope.ok(nil) }
        let ranges: [JSONValue] = kept.map { piece in
            .object([("from", .integer(Int(piece.from.timeIntervalSince1970))),
                     ("duration", .integer(max(1, Int(piece.to.timeIntervalSince(piece.from).rounded(.down)))))])
        }
        return OperatorEnvelope.ok(.array([.object([("stream", .string("cctv/\(id)")), ("ranges", .array(ranges))])]))
    }
}

extension OperatorVideoService {
    /// The camera's kept recording as one piece (nil: no camera of that id); the camera starts with
    /// this request if it had not, as with any other.
    func keptRange(cameraId id: Int) -> [(from: Date, to: Date)]? {
        guard case .success(let camera) = self.camera(id) else { return nil }
        guard let playlist = camera.waitForPlaylist(timeout: Self.firstSegmentTimeout),
              let newest = OperatorCameraPipeline.segments(in: playlist).last else { return [] }
        let kept = camera.recorded(upTo: newest)
        guard let first = kept.first, let last = kept.last else { return [] }
        return [(first.start, last.end)]
    }
}
