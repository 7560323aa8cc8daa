import Foundation
import IntercomBase

/// `cctv/camMap`: each entrance panel's camera, as SmartYard's server answers it — the panel's
/// `domophoneId` as `id`, its entrance, and the stream of the camera `cctv/all` lists for the house.
extension OperatorService {
    func cameraMap(_ caller: Caller) -> OperatorReply {
        guard caller.hasFlat else { return OperatorEnvelope.ok(nil) }
        return OperatorEnvelope.ok(.array(houses.compactMap { house -> JSONValue? in
            guard let domophone = house.doors.first?.domophoneId else { return nil }
            return .object([
                ("id", .string(domophone)),
                ("entranceId", .integer(house.entranceId)),
            ] + cameraStream(house) + [
                // "t" when the entrance's camera has a face-recognition stream (`strlen(frs) > 1`), else "f".
                ("frs", .flag(options.recognition)),
                ("altCameras", .array([])),
            ])
        }))
    }
}
