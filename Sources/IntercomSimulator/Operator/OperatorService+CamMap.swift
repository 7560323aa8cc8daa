import Foundation
import IntercomBase

/// `cctv/camMap` as `server/mobile/cctv/camMap.php` answers it: one item per entrance of the caller's
/// flats (a panel that serves several entrances appears once for each, `id` its `domophoneId` every
/// time), `entranceId` and `id` as strings, the entrance camera's stream, `frs` "t"/"f" and
/// `hasSound`; `altCameras` only when the entrance has some (none here); 204 when there is none.
extension OperatorService {
    func cameraMap(_ caller: Caller) -> OperatorReply {
        guard caller.hasFlat else { return OperatorEnvelope.noContent }
        let items: [JSONValue] = houses.flatMap { house -> [JSONValue] in
            guard let domophone = house.doors.first?.domophoneId else { return [] }
            return house.entrances.map { entrance in
                .object([
                    ("entranceId", .string(String(entrance.entranceId))),
                    ("id", .string(domophone)),
                ] + cameraStream(cameraId: entrance.cameraId) + [
                    // "t" when the entrance's camera has a face-recognition stream (`strlen(frs) > 1`), else "f".
                    ("frs", .flag(options.recognition)),
                ])
            }
        }
        return items.isEmpty ? OperatorEnvelope.noContent : OperatorEnvelope.ok(.array(items))
    }
}
