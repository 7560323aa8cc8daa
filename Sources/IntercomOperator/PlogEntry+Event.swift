import Foundation
import IntercomBase

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

    /// The camera's id as `intercom cameras` gives it (`home:cam:3`): the camera that saw the entry
    /// (`cameraId`; the server's `objectType` is always 0, so the object is never a camera).
    public func cameraID(operator name: String) -> String? {
        cameraId.map { OperatorItemID.camera(operator: name, cameraId: $0) }
    }
}

extension OperatorLogNotice {
    public init(entry: PlogEntry, operator name: String, picture: String?) {
        self.init(operatorName: name, kind: entry.eventName, door: entry.doorID(operator: name),
                  camera: entry.cameraID(operator: name), who: entry.whoKind, detail: entry.who, time: entry.time,
                  uuid: entry.key, picture: picture)
    }
}
