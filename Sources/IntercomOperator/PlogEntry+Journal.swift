import Foundation
import IntercomBase

extension PlogEntry {
    /// The journal's form of this entry (`operator_event`): what the daemon stores and what
    /// `intercom log` prints for an entry fetched live, so both read the same.
    public func journalEntry(operator name: String, flat: OperatorFlat) -> JournalEntry {
        let who = detail.first { ["phone", "phoneFrom", "key", "code", "vehicle", "face", "faceId"].contains($0.0) }
        return .operatorEvent(operator: name, event: eventName, eventText: eventText, uuid: key, time: time, door: door,
                              who: who?.1, flat: flat.flatId, address: flat.address, pictureURL: preview,
                              detail: .object(detail.map { ($0.0, .string($0.1)) }))
    }

    /// The entry's uuid; an operator whose log has none gets one made of what the entry says, so
    /// fetching it again still finds it.
    public var key: String {
        uuid ?? "t\(Int(time.timeIntervalSince1970))-\(eventCode ?? 0)-\(door ?? "")"
    }
}
