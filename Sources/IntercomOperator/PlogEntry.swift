import Foundation
import IntercomBase

/// A day of the operator's event log that has entries (`address/plogDays`).
public struct PlogDay: Sendable, Equatable {
    /// `YYYY-MM-DD`, the operator's local date.
    public var day: String
    public var events: Int

    package static func list(_ data: JSONValue?) -> [PlogDay]? {
        guard let data else { return [] }
        return data.arrayValue?.compactMap { item in
            item.text("day").map { PlogDay(day: $0, events: item["events"]?.looseInt ?? 0) }
        }
    }
}

/// One entry of the operator's event log (`address/plog`).
public struct PlogEntry: Sendable, Equatable {
    public var time: Date
    public var uuid: String?
    /// nil for a code this client does not know (an operator's own).
    public var event: PlogEvent?
    public var eventCode: Int?
    /// Which door (`mechanizmaDescription`).
    public var door: String?
    /// The picture's full URL (`preview`), when the entry has one.
    public var preview: String?
    /// Who: the phone, key or code from `detailX` as the server wrote it, `plate` (the number from
    /// `detailX.vehicle.plateNumber`) and `faceId`.
    public var detail: [(String, String)]
    /// What the entry is about: `objectType` is always "0" on the server (plog.php writes only a
    /// domophone's entries): `objectId` the panel, `objectMechanizma` the door.
    public var objectType: Int?
    public var objectId: String?
    public var objectDoor: Int?
    /// The entrance the panel reported it from, and that entrance's camera (plog.php's `entranceId`
    /// and `cameraId`, each only when the server knows it): the camera that saw this entry, which on a
    /// panel serving two entrances is not always the panel's first.
    public var entranceId: String?
    public var cameraId: String?

    public static func == (a: PlogEntry, b: PlogEntry) -> Bool {
        a.time == b.time && a.uuid == b.uuid && a.eventCode == b.eventCode && a.door == b.door
            && a.preview == b.preview && a.detail.map { "\($0)=\($1)" } == b.detail.map { "\($0)=\($1)" }
    }

    /// `timeZone`: the operator's, for an entry that does not name its own.
    package init?(json: JSONValue, timeZone: TimeZone = .current) {
        let zone = json.text("timezone").flatMap(TimeZone.init(identifier:)) ?? timeZone
        guard let date = json.text("date"), let time = OperatorTime.parse(date, timeZone: zone) else { return nil }
        self.time = time
        uuid = json.text("uuid")
        eventCode = json["event"]?.looseInt
        event = eventCode.flatMap(PlogEvent.init(rawValue:))
        door = json.text("mechanizmaDescription")
        preview = json.text("preview")
        objectType = json["objectType"]?.looseInt
        objectId = json.text("objectId")
        objectDoor = json["objectMechanizma"]?.looseInt
        // 0 or absent is "not known" (the server leaves both out then).
        entranceId = json["entranceId"]?.looseString.flatMap { $0.isEmpty || $0 == "0" ? nil : $0 }
        cameraId = json["cameraId"]?.looseString.flatMap { $0.isEmpty || $0 == "0" ? nil : $0 }
        var detail: [(String, String)] = []
        if let details = json["detailX"], case .object(let fields) = details {
            for (key, value) in fields where ["phone", "phoneFrom", "phoneTo", "key", "code", "faceId", "opened"].contains(key) {
                if let text = value.looseString, !text.isEmpty { detail.append((key, text)) }
            }
            // `vehicle` is an object {vehicleBox, plateKeyPoints, plateNumber}; `face` a box, not an identity.
            if let plate = details["vehicle"]?.text("plateNumber") { detail.append(("plate", plate)) }
        }
        self.detail = detail
    }

    static func list(_ data: JSONValue?, timeZone: TimeZone = .current) -> [PlogEntry]? {
        guard let data else { return [] }
        return data.arrayValue?.compactMap { PlogEntry(json: $0, timeZone: timeZone) }
    }

    /// The event as shown: its name, or `event N` for one this client does not know.
    public var eventName: String { event?.name ?? "event_\(eventCode ?? 0)" }
    public var eventText: String { event?.text ?? "event \(eventCode ?? 0)" }
}
