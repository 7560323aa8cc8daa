import Foundation

/// One row of the journal: a call, a door opening, a panel alarm event, or an entry of an
/// operator's event log (the daemon's copy, or one fetched live by `intercom log`).
public struct JournalEntry: Sendable, Equatable {
    /// `transfer`: a transfer of a call that ended (`detail` the target, `method` blind or attended,
    /// `ok`, `error` why it failed or was cancelled).
    public enum Kind: String, Sendable { case call, door, panelEvent = "panel_event", operatorEvent = "operator_event", transfer }

    public var id: Int64
    public var kind: Kind
    /// Call start, door opening or alarm time.
    public var time: Date
    public var panel: String?
    public var call: String?
    public var caller: String?
    public var ended: Date?
    /// The call_ended reason; nil while the call was in progress (or the daemon died during it).
    public var outcome: String?
    public var durationSeconds: Double?
    public var answeredBy: String?
    /// Door entries: the door; panel events: their kind (ding, motion, door); operator events:
    /// the door as the operator names it.
    public var detail: String?
    /// Door entries: http or dtmf; panel events: on or off.
    public var method: String?
    public var ok: Bool?
    public var error: String?
    public var firstPicture: String?
    public var answerPicture: String?
    /// Door entries: what triggered the opening (key, ctl, command, guest_mode, hook); nil in
    /// journals written before it was kept.
    public var openedBy: String? = nil
    /// Operator events: the operator's name, the event (`call_missed`, `opened_by_app`, …), the
    /// entry's uuid (its key: fetched again, it is not stored twice), the flat and its address,
    /// the preview picture's URL, and who/what the operator recorded (phone, key, code…).
    /// `caller` holds who in a word, `outcome` the event in words.
    public var operatorName: String? = nil
    public var event: String? = nil
    public var uuid: String? = nil
    public var flat: String? = nil
    public var address: String? = nil
    public var pictureURL: String? = nil
    public var eventDetail: JSONValue? = nil
    /// Calls: `incoming` or `outgoing` (`intercom call`); nil in journals written before it was kept (incoming).
    public var direction: String? = nil
    /// Calls: where the call was transferred to (`NAME <URI>` for a `[directory]` name, else the URI).
    public var transferredTo: String? = nil
    /// Call entries with `[panel] record` on: the answered call's recording, and the clip of the
    /// panel's stream from the ring on (`record = rings`). Files in the pictures folder.
    public var clip: String? = nil
    public var ringClip: String? = nil
    /// Door entries: the panel's door-sensor changes that echoed this opening (`on`, `off`), in
    /// order, folded in instead of kept as entries of their own (`DoorSensorFold`).
    public var sensor: [String] = []
    /// Missed calls: when and by whom the call was returned or otherwise dealt with (`intercom log
    /// --handled`, `ctl handled`); nil while it waits in the desk's queue of missed calls.
    public var handledAt: Date? = nil
    public var handledBy: String? = nil
    /// Missed calls: why the last call back reached nobody and who tried (`refused (Busy Here), by
    /// ctl (alice)`); the entry stays in the queue until a call back is answered or it is handled.
    public var callBackFailed: String? = nil
    /// Calls: the face that answered; door entries: the face that asked for the opening (`who`).
    /// Nil when none of ours did, and in journals written before it was kept.
    public var who: FaceIdentity? = nil
    /// Operator events: the camera that saw the entry and the entrance it came from (the operator's
    /// `cameraId`, `entranceId`); nil when the operator named none, and in journals written before.
    public var cameraId: String? = nil
    public var entranceId: String? = nil

    /// An entry of an operator's event log.
    public static func operatorEvent(operator name: String, event: String, eventText: String, uuid: String, time: Date,
                                     door: String?, who: String?, flat: String?, address: String?, pictureURL: String?,
                                     detail: JSONValue?) -> JournalEntry {
        JournalEntry(id: 0, kind: .operatorEvent, time: time, panel: nil, call: nil, caller: who, ended: nil,
                     outcome: eventText, durationSeconds: nil, answeredBy: nil, detail: door, method: nil, ok: nil,
                     error: nil, firstPicture: nil, answerPicture: nil, operatorName: name, event: event, uuid: uuid,
                     flat: flat, address: address, pictureURL: pictureURL, eventDetail: detail)
    }

    /// The clip that shows the call best: its recording when answered, else the ring's clip.
    public var playableClip: String? { clip ?? ringClip }

    /// Rang and nobody talked: not a call another desk answered, nor one we placed.
    public var missed: Bool {
        kind == .call && answeredBy == nil && outcome != nil && outcome != "answered_elsewhere" && direction != "outgoing"
    }

    public var json: JSONValue {
        // Entries fetched live from an operator have no row.
        var fields: [(String, JSONValue)] = id > 0 ? [("id", .integer(Int(id)))] : []
        fields += [("kind", .string(kind.rawValue)), ("time", .string(RFC3339.string(time)))]
        if kind != .operatorEvent { fields.append(("panel", .optional(panel))) }
        switch kind {
        case .call:
            fields += [("call", .optional(call)), ("from", .optional(caller)),
                       ("ended", ended.map { .string(RFC3339.string($0)) } ?? .null),
                       ("outcome", .optional(outcome)),
                       ("duration_s", durationSeconds.map { .number(($0 * 10).rounded() / 10) } ?? .null),
                       ("answered_by", .optional(answeredBy)), ("who", who?.json ?? .null), ("missed", .bool(missed)),
                       ("direction", .string(direction ?? "incoming")), ("transferred_to", .optional(transferredTo)),
                       ("first_picture", .optional(firstPicture)), ("answer_picture", .optional(answerPicture)),
                       ("clip", .optional(playableClip)), ("ring_clip", .optional(ringClip)),
                       ("handled_at", handledAt.map { .string(RFC3339.string($0)) } ?? .null), ("handled_by", .optional(handledBy)),
                       ("callback_failed", .optional(callBackFailed))]
        case .door:
            fields += [("call", .optional(call)), ("door", .optional(detail)), ("method", .optional(method)),
                       ("by", .optional(openedBy)), ("who", who?.json ?? .null), ("ok", ok.map { .bool($0) } ?? .null)]
            if let error { fields.append(("error", .string(error))) }
            // A panel's own opening (its syslog): the key's id and the flat, when it named them.
            if case .string(let key)? = eventDetail { fields.append(("key", .string(key))) }
            if let flat { fields.append(("flat", .string(flat))) }
            if !sensor.isEmpty { fields.append(("sensor", .array(sensor.map { .string($0) }))) }
        case .panelEvent:
            fields += [("event_kind", .optional(detail)), ("state", .optional(method))]
        case .transfer:
            fields += [("call", .optional(call)), ("to", .optional(detail)), ("mode", .optional(method)),
                       ("ok", ok.map { .bool($0) } ?? .null)]
            if let error { fields.append(("error", .string(error))) }
        case .operatorEvent:
            fields += [("operator", .optional(operatorName)), ("event", .optional(event)), ("door", .optional(detail)),
                       ("flat", .optional(flat)), ("address", .optional(address)),
                       ("detail", eventDetail ?? .object([])), ("picture", .optional(pictureURL)),
                       ("uuid", .optional(uuid)), ("camera", .optional(cameraId.map { "\(operatorName ?? ""):cam:\($0)" })),
                       ("entrance_id", .optional(entranceId))]
            if let firstPicture { fields.append(("picture_file", .string(firstPicture))) }
        }
        return .object(fields)
    }
}
