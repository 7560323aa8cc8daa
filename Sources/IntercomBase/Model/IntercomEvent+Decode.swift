import Foundation

/// Reading an event line back (`json`'s inverse): an attached screen gets the daemon's events
/// from the control socket and draws them as if its own engine had published them.
extension IntercomEvent {
    /// nil for a line that is no event this version knows (a newer daemon's: skipped, not fatal).
    public init?(json value: JSONValue) {
        guard let name = value["event"]?.stringValue.flatMap(EventName.init(rawValue:)),
              let time = value["time"]?.stringValue.flatMap(RFC3339.date) else { return nil }
        func text(_ key: String) -> String? { value[key]?.stringValue }
        func flag(_ key: String) -> Bool? { value[key]?.boolValue }
        func number(_ key: String) -> Double? {
            switch value[key] {
            case .integer(let n)?: Double(n)
            case .number(let d)?: d
            default: nil
            }
        }
        let ref = text("call").map { CallRef(id: CallID($0), panel: text("panel"), from: text("from") ?? "") }
        let kind: Kind
        switch name {
        case .started:
            guard case .array(let listen)? = value["listen"] else { return nil }
            kind = .started(listen: listen.compactMap(\.stringValue), version: text("version") ?? "")
        case .registered, .registrationFailed:
            guard let account = text("account") else { return nil }
            kind = name == .registered ? .registered(account: account, reason: text("reason"))
                : .registrationFailed(account: account, reason: text("reason"))
        case .callIncoming:
            guard let ref else { return nil }
            kind = .callIncoming(ref)
        case .callOutgoing:
            guard let ref, let to = text("to") else { return nil }
            kind = .callOutgoing(ref, to: to)
        case .peepholeFrame:
            guard let ref, let w = number("width"), let h = number("height") else { return nil }
            kind = .peepholeFrame(ref, width: Int(w), height: Int(h), fps: number("fps") ?? 0)
        case .callAnswered:
            guard let ref, let by = text("by").flatMap(AnsweredBy.init(rawValue:)) else { return nil }
            kind = .callAnswered(ref, by: by)
        case .doorOpened:
            guard let panel = text("panel"), let door = text("door"), let method = text("method"),
                  let by = text("by").flatMap(DoorTrigger.init(rawValue:)), let ok = flag("ok") else { return nil }
            kind = method == PanelOpening.method
                ? .panelOpened(PanelOpening(panel: panel, door: door, by: by, key: text("key"), flat: text("flat")))
                : .doorOpened(panel: panel, call: ref, door: door, method: method, by: by, ok: ok, error: text("error"))
        case .audioChanged:
            guard let muted = flag("muted"), let speaker = flag("speaker") else { return nil }
            kind = .audioChanged(muted: muted, speaker: speaker, device: text("device") ?? "")
        case .callEnded:
            guard let ref, let reason = text("reason").flatMap(CallEndReason.init(rawValue:)) else { return nil }
            kind = .callEnded(ref, reason: reason, durationSeconds: number("duration_s") ?? 0)
        case .callTransferred:
            guard let ref, let to = text("to"), let ok = flag("ok") else { return nil }
            kind = .callTransferred(ref, to: to, target: text("target"), ok: ok, error: text("error"))
        case .transferConsult:
            guard let ref, let state = text("state").flatMap(ConsultState.init(rawValue:)), let to = text("to") else { return nil }
            kind = .transferConsult(ref, state: state, to: to, target: text("target"), consultCall: text("consult_call").map(CallID.init),
                                    error: text("error"))
        case .panelEvent:
            guard let panel = text("panel"), let what = text("kind"), let state = text("state") else { return nil }
            kind = .panelEvent(panel: panel, kind: what, state: state, door: text("door"))
        case .panelCalling:
            guard let panel = text("panel"), let flat = text("flat") else { return nil }
            kind = .panelCalling(panel: panel, flat: flat, via: text("via") ?? "sip")
        case .callAnsweredElsewhere:
            guard let panel = text("panel"), let flat = text("flat") else { return nil }
            kind = .callAnsweredElsewhere(panel: panel, flat: flat)
        case .panelUnreachable:
            guard let panel = text("panel") else { return nil }
            kind = .panelUnreachable(panel: panel, error: text("error") ?? "")
        case .panelReachable:
            guard let panel = text("panel") else { return nil }
            kind = .panelReachable(panel: panel)
        case .panelPolicy:
            guard let panel = text("panel"), let calls = flag("calls") else { return nil }
            kind = .panelPolicy(panel: panel, calls: calls, guestUntil: text("guest_until").flatMap(RFC3339.date))
        case .siteUnreachable:
            kind = .siteUnreachable(error: text("error") ?? "")
        case .siteReachable:
            kind = .siteReachable(replayed: Int(number("replayed") ?? 0))
        case .operatorEvent:
            guard let op = text("operator"), let what = text("kind"), let uuid = text("uuid") else { return nil }
            kind = .operatorEvent(OperatorLogNotice(operatorName: op, kind: what, door: text("door"), camera: text("camera"),
                                                    who: text("who"), detail: text("detail"), time: time, uuid: uuid,
                                                    picture: text("picture")))
        case .operatorMessage:
            guard let op = text("operator"), let unread = number("unread") else { return nil }
            kind = .operatorMessage(operator: op, unread: Int(unread))
        case .shareExpired:
            guard let expiry = ShareExpiry(json: value) else { return nil }
            kind = .shareExpired(expiry)
        case .error:
            kind = .error(message: text("message") ?? "")
        }
        // An operator event's `who` is the operator's words, not a face.
        let acting: Bool = switch name { case .callAnswered, .doorOpened, .callEnded: true; default: false }
        let takenAt = name == .callEnded ? text("desk").map { SiteDeskRef(desk: $0, operatorName: text("operator")) } : nil
        self.init(kind, time: time, who: acting ? value["who"].flatMap(FaceIdentity.init(json:)) : nil, takenAt: takenAt)
    }
}

extension DoorListing {
    /// Reads `json` back (the `doors` of a `state` object), for an attached screen's door list.
    public init?(json value: JSONValue) {
        guard let id = value["id"]?.stringValue, let name = value["name"]?.stringValue,
              let source = value["source"]?.stringValue.flatMap(Source.init(rawValue:)),
              let owner = value[source == .panel ? "panel" : "operator"]?.stringValue else { return nil }
        self.init(id: id, name: name, source: source, owner: owner, address: value["address"]?.stringValue,
                  blocked: value["blocked"]?.stringValue)
    }
}
