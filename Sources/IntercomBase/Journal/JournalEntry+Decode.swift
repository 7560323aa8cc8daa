import Foundation

extension JournalEntry {
    /// Reads back what `json` writes: the control socket's `journal` reply, so `ctl journal` lays
    /// the daemon's entries out as `intercom log` does. Nil for an object that is not an entry.
    /// An operator event's words (`outcome`) and who (`caller`) are not in its JSON: its `event` stands in.
    public init?(json: JSONValue) {
        guard let kindText = json["kind"]?.stringValue, let kind = Kind(rawValue: kindText),
              let timeText = json["time"]?.stringValue, let time = RFC3339.date(timeText) else { return nil }
        func text(_ key: String) -> String? { json[key]?.stringValue }
        func date(_ key: String) -> Date? { text(key).flatMap(RFC3339.date) }
        var id: Int64 = 0
        if case .integer(let n)? = json["id"] { id = Int64(n) }
        self.init(id: id, kind: kind, time: time, panel: text("panel"), call: nil, caller: nil, ended: nil, outcome: nil,
                  durationSeconds: nil, answeredBy: nil, detail: nil, method: nil, ok: nil, error: nil,
                  firstPicture: nil, answerPicture: nil)
        who = json["who"].flatMap(FaceIdentity.init(json:))
        switch kind {
        case .call:
            (call, caller, ended, outcome) = (text("call"), text("from"), date("ended"), text("outcome"))
            switch json["duration_s"] {
            case .number(let seconds)?: durationSeconds = seconds
            case .integer(let seconds)?: durationSeconds = Double(seconds)
            default: break
            }
            (answeredBy, direction, transferredTo) = (text("answered_by"), text("direction"), text("transferred_to"))
            (firstPicture, answerPicture, ringClip) = (text("first_picture"), text("answer_picture"), text("ring_clip"))
            // `clip` is the playable one: the ring's clip when the call has no recording of its own.
            clip = text("clip") == ringClip ? nil : text("clip")
            (handledAt, handledBy, callBackFailed) = (date("handled_at"), text("handled_by"), text("callback_failed"))
        case .door:
            (call, detail, method, openedBy, ok, error) = (text("call"), text("door"), text("method"), text("by"),
                                                          json["ok"]?.boolValue, text("error"))
            (flat, eventDetail) = (text("flat"), json["key"])
            if case .array(let states)? = json["sensor"] { sensor = states.compactMap(\.stringValue) }
        case .panelEvent:
            (detail, method) = (text("event_kind"), text("state"))
        case .transfer:
            (call, detail, method, ok, error) = (text("call"), text("to"), text("mode"), json["ok"]?.boolValue, text("error"))
        case .operatorEvent:
            (operatorName, event, detail, flat, address) = (text("operator"), text("event"), text("door"), text("flat"), text("address"))
            (pictureURL, uuid, firstPicture) = (text("picture"), text("uuid"), text("picture_file"))
            eventDetail = json["detail"]
            // `camera` is the id `watch` takes (OPERATOR:cam:ID): the operator's camera id is after `:cam:`.
            cameraId = text("camera").flatMap { camera in camera.range(of: ":cam:", options: .backwards).map { String(camera[$0.upperBound...]) } }
            entranceId = text("entrance_id")
        }
    }
}
