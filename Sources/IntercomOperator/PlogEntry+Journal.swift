import Foundation
import IntercomBase

extension PlogEntry {
    /// The journal's form of this entry (`operator_event`): what the daemon stores and what
    /// `intercom log` prints for an entry fetched live, so both read the same.
    public func journalEntry(operator name: String, flat: OperatorFlat) -> JournalEntry {
        var entry = JournalEntry.operatorEvent(operator: name, event: eventName, eventText: eventText, uuid: key, time: time,
                                               door: door, who: who, flat: flat.flatId, address: flat.address, pictureURL: preview,
                                               detail: .object(detail.map { ($0.0, .string($0.1)) } + source))
        entry.cameraId = cameraId
        entry.entranceId = entranceId
        return entry
    }

    /// The panel it came from (`domophone`: the operator's id), for an entry without a camera of its
    /// own (`cameraId`, kept in the journal's own column): `log --export` then takes the panel's
    /// entrance camera from the camera map.
    var source: [(String, JSONValue)] {
        guard let objectId, !objectId.isEmpty, objectType ?? 0 == 0 else { return [] }
        return [("domophone", .string(objectId))]
    }

    /// Who caused the entry: a phone, key or code as written, `plate A123BC`, `face 17`.
    public var who: String? {
        for (key, value) in detail {
            switch key {
            case "phone", "phoneFrom", "key", "code": return value
            case "plate": return "plate \(value)"
            case "faceId": return "face \(value)"
            default: continue
            }
        }
        return nil
    }

    /// The entry's uuid; an operator whose log has none gets one made of what the entry says, so
    /// fetching it again still finds it.
    public var key: String {
        uuid ?? "t\(Int(time.timeIntervalSince1970))-\(eventCode ?? 0)-\(door ?? "")"
    }
}
