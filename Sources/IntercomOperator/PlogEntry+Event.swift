import Foundation

extension PlogEntry {
    /// The category of who caused the entry, for `operator_event.who`: `key`, `face`, `plate`,
    /// `code`, `app` or `call` (the calls and the gate opened by a call); nil for an operator's own code.
    public var whoKind: String? {
        switch event {
        case .openedByKey: "key"
        case .openedByFace: "face"
        case .openedByPlate: "plate"
        case .openedByCode: "code"
        case .openedByApp: "app"
        case .callMissed, .callAnswered, .gateByCall: "call"
        case nil: nil
        }
    }

    /// The door's id as `intercom doors` gives it (`home:1:0`), for an entry of a domophone.
    public func doorID(operator name: String) -> String? {
        guard objectType ?? 0 == 0, let objectId, !objectId.isEmpty else { return nil }
        return OperatorItemID.door(operator: name, domophoneId: objectId, doorId: objectDoor ?? 0)
    }

    /// The camera's id as `intercom cameras` gives it (`home:cam:3`), for an entry of a camera.
    public func cameraID(operator name: String) -> String? {
        guard let type = objectType, type != 0, let objectId, !objectId.isEmpty else { return nil }
        return OperatorItemID.camera(operator: name, cameraId: objectId)
    }
}

/// A new entry of an operator's log, as the log sync hands it to the daemon's `operator_event`.
public struct OperatorLogNotice: Sendable, Equatable {
    public var operatorName: String
    /// The entry's `event` value as a name (`opened_by_app`; `event_N` for an unknown code).
    public var kind: String
    public var door: String?
    public var camera: String?
    /// `key`, `face`, `plate`, `code`, `app`, `call`.
    public var who: String?
    /// What the entry says of who: a phone, key or code, `plate A123BC`, `face 17`.
    public var detail: String?
    public var time: Date
    public var uuid: String
    /// The kept preview picture's path in the journal, when it was kept.
    public var picture: String?

    public init(operatorName: String, kind: String, door: String?, camera: String?, who: String?, detail: String?,
                time: Date, uuid: String, picture: String?) {
        self.operatorName = operatorName
        self.kind = kind
        self.door = door
        self.camera = camera
        self.who = who
        self.detail = detail
        self.time = time
        self.uuid = uuid
        self.picture = picture
    }

    public init(entry: PlogEntry, operator name: String, picture: String?) {
        self.init(operatorName: name, kind: entry.eventName, door: entry.doorID(operator: name),
                  camera: entry.cameraID(operator: name), who: entry.whoKind, detail: entry.who, time: entry.time,
                  uuid: entry.key, picture: picture)
    }
}
