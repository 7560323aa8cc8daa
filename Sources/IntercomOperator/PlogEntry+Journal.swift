import Foundation
import IntercomBase

extension PlogEntry {
    /// The journal's form of this entry (`operator_event`): what the daemon stores and what
    /// `intercom log` prints for an entry fetched live, so both read the same.
    public func journalEntry(operator name: String, flat: OperatorFlat) -> JournalEntry {
        return .operatorEvent(operator: name, event: eventName, eventText: eventText, uuid: key, time: time, door: door,
                              who: who, flat: flat.flatId, address: flat.address, pictureURL: preview,
                              detail: .object(detail.map { ($0.0, .string($0.1)) } + source))
    }

    /// What recorded it, for `log --export` (the camera of that panel, or that camera): `domophone`
    /// or `camera` with the operator's id.
    var source: [(String, JSONValue)] {
        guard let objectId, !objectId.isEmpty else { return [] }
        return [((objectType ?? 0) == 0 ? "domophone" : "camera", .string(objectId))]
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
