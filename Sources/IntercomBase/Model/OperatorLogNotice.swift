import Foundation

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
}
