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
                ("frs", .string("")),
                ("altCameras", .array([])),
            ])
        }))
    }
}
