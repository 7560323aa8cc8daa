import Foundation

/// One daemon event (docs/DAEMON.md): what the daemon prints, the control socket
/// streams, the TUI draws and the journal keeps. One model for every front end.
public struct IntercomEvent: Sendable, Equatable {
    /// Who a call-related event concerns.
    public struct CallRef: Sendable, Equatable {
        public var id: CallID
        public var panel: String?
        public var from: String
        public init(id: CallID, panel: String?, from: String) {
            self.id = id
            self.panel = panel
            self.from = from
        }
    }

    /// `remote`: the panel accepted a call we placed (`intercom call`).
    public enum AnsweredBy: String, Sendable, Equatable {
        case user, notification, auto, guestMode = "guest_mode", remote

        package init(_ trigger: AnswerTrigger) {
            switch trigger {
            case .user: self = .user
            case .notification: self = .notification
            }
        }
    }

    /// The steps of an attended transfer: `calling` (the call is on hold, the target rings),
    /// `answered` (complete or cancel now), `transferring` (REFER sent; `call_transferred` follows),
    /// `cancelled` (the desk went back to the call), `failed` (the target refused or hung up, or
    /// the caller did: `error`). After `cancelled` or `failed` the call is off hold again.
    public enum ConsultState: String, Sendable, Equatable {
        case calling, answered, transferring, cancelled, failed
    }

    public enum Kind: Sendable, Equatable {
        case started(listen: [String], version: String)
        case registered(account: String, reason: String?)
        case registrationFailed(account: String, reason: String?)
        case callIncoming(CallRef)
        /// We call a panel; `to` is the URI dialled (the call's `from` is our own address).
        case callOutgoing(CallRef, to: String)
        case peepholeFrame(CallRef, width: Int, height: Int, fps: Double)
        case callAnswered(CallRef, by: AnsweredBy)
        case doorOpened(panel: String, call: CallRef?, door: String, method: String, by: DoorTrigger, ok: Bool, error: String?)
        /// The microphone was muted or unmuted, or call audio moved between `[audio] playback` and
        /// `speaker` (`device`: where it plays now), so every front end shows the real state.
        case audioChanged(muted: Bool, speaker: Bool, device: String)
        case callEnded(CallRef, reason: CallEndReason, durationSeconds: Double)
        /// What became of a transfer (`t`, `ctl transfer`): `to` is the URI, `target` the
        /// `[directory]` name when one was given; `ok` once the other side's call to it connected.
        case callTransferred(CallRef, to: String, target: String?, ok: Bool, error: String?)
        /// A step of an attended transfer of the call (`T`, `ctl transfer --consult`): the call is on
        /// hold while `consultCall` calls `to`; `error` says why a `failed` one failed.
        case transferConsult(CallRef, state: ConsultState, to: String, target: String?, consultCall: CallID?, error: String?)
        /// `door`: for a relay line, the door its relay opens (`main`, `alt`, `light`, a number), when it names one.
        case panelEvent(panel: String, kind: String, state: String, door: String? = nil)
        /// A door the panel opened by itself, from its syslog: `door_opened` with `method` `panel`.
        case panelOpened(PanelOpening)
        /// The panel calls `flat` (its syslog): `via` `sip` (the number it dials) or `cms` (a handset).
        case panelCalling(panel: String, flat: String, via: String)
        /// An analogue handset of `flat` took the panel's call (its syslog).
        case callAnsweredElsewhere(panel: String, flat: String)
        case panelUnreachable(panel: String, error: String)
        case panelReachable(panel: String)
        /// Do-not-disturb or guest mode changed (a command, or SIGHUP), so every front end shows
        /// what is in force: `calls` false = do not disturb; `guestUntil` nil = guest mode off.
        case panelPolicy(panel: String, calls: Bool, guestUntil: Date?)
        /// The site's store stopped answering (`[site]`, docs/SITE.md): this desk goes on alone and keeps
        /// what it writes for the site. Once per outage.
        case siteUnreachable(error: String)
        /// The store answers again; `replayed` writes kept meanwhile were sent to it.
        case siteReachable(replayed: Int)
        /// A new entry of an operator's event log, seen by the daemon's round over it.
        case operatorEvent(OperatorLogNotice)
        /// The operator's unread messages grew to `unread`.
        case operatorMessage(operator: String, unread: Int)
        /// The daemon took a guest's access back at the end it kept for it (`intercom share --until`).
        case shareExpired(ShareExpiry)
        case error(message: String)
    }

    public var time: Date
    public var kind: Kind
    /// Who acted (`call_answered`: answered; `door_opened`: asked for the opening; `call_ended`:
    /// hung up or declined): the `who` field. Nil when nobody of ours did (the caller hung up).
    public var who: FaceIdentity?
    /// `call_ended` with `answered_elsewhere` at a desk of a site (`[site]`): the desk that took
    /// the call and its operator, the `desk` and `operator` fields. Nil on a lone desk.
    public var takenAt: SiteDeskRef?

    public init(_ kind: Kind, time: Date = Date(), who: FaceIdentity? = nil, takenAt: SiteDeskRef? = nil) {
        self.kind = kind
        self.time = time
        self.who = who
        self.takenAt = takenAt
    }

    /// The `event` field.
    public var name: String { eventName.rawValue }

    public var eventName: EventName {
        switch kind {
        case .started: .started
        case .registered: .registered
        case .registrationFailed: .registrationFailed
        case .callIncoming: .callIncoming
        case .callOutgoing: .callOutgoing
        case .peepholeFrame: .peepholeFrame
        case .callAnswered: .callAnswered
        case .doorOpened, .panelOpened: .doorOpened
        case .audioChanged: .audioChanged
        case .callEnded: .callEnded
        case .callTransferred: .callTransferred
        case .transferConsult: .transferConsult
        case .panelEvent: .panelEvent
        case .panelCalling: .panelCalling
        case .callAnsweredElsewhere: .callAnsweredElsewhere
        case .panelUnreachable: .panelUnreachable
        case .panelReachable: .panelReachable
        case .panelPolicy: .panelPolicy
        case .siteUnreachable: .siteUnreachable
        case .siteReachable: .siteReachable
        case .operatorEvent: .operatorEvent
        case .operatorMessage: .operatorMessage
        case .shareExpired: .shareExpired
        case .error: .error
        }
    }

    /// The call this event concerns, if any.
    public var call: CallRef? {
        switch kind {
        case .callIncoming(let c), .callOutgoing(let c, _), .peepholeFrame(let c, _, _, _), .callAnswered(let c, _), .callEnded(let c, _, _): c
        case .callTransferred(let c, _, _, _, _), .transferConsult(let c, _, _, _, _, _): c
        case .doorOpened(_, let c, _, _, _, _, _): c
        default: nil
        }
    }

    /// The panel this event concerns, if any.
    public var panel: String? {
        switch kind {
        case .doorOpened(let p, _, _, _, _, _, _), .panelEvent(let p, _, _, _), .panelUnreachable(let p, _), .panelReachable(let p),
             .panelPolicy(let p, _, _), .panelCalling(let p, _, _), .callAnsweredElsewhere(let p, _): p
        case .panelOpened(let opening): opening.panel
        default: call?.panel
        }
    }

    /// The event's JSON object: `event` and `time` first, then the call fields, then the rest.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [("event", .string(name)), ("time", .string(Self.rfc3339(time)))]
        func callFields(_ c: CallRef) {
            fields += [("call", .string(c.id.rawValue)), ("panel", .optional(c.panel)), ("from", .string(c.from))]
        }
        // Only the events a face acts in carry it, and only when one did.
        func whoField() { if let who { fields.append(("who", who.json)) } }
        switch kind {
        case .started(let listen, let version):
            fields += [("listen", .array(listen.map { .string($0) })), ("version", .string(version))]
        case .registered(let account, let reason), .registrationFailed(let account, let reason):
            fields += [("account", .string(account)), ("reason", .optional(reason))]
        case .callIncoming(let c):
            callFields(c)
        case .callOutgoing(let c, let to):
            callFields(c)
            fields += [("to", .string(to))]
        case .peepholeFrame(let c, let w, let h, let fps):
            callFields(c)
            fields += [("width", .integer(w)), ("height", .integer(h)), ("fps", .number((fps * 10).rounded() / 10))]
        case .callAnswered(let c, let by):
            callFields(c)
            fields += [("by", .string(by.rawValue))]
            whoField()
        case .doorOpened(let panel, let c, let door, let method, let by, let ok, let error):
            if let c { callFields(c) } else { fields += [("call", .null), ("panel", .string(panel))] }
            fields += [("door", .string(door)), ("method", .string(method)), ("by", .string(by.rawValue)), ("ok", .bool(ok))]
            if let error { fields += [("error", .string(error))] }
            whoField()
        case .audioChanged(let muted, let speaker, let device):
            fields += [("muted", .bool(muted)), ("speaker", .bool(speaker)), ("device", .string(device))]
        case .callEnded(let c, let reason, let duration):
            callFields(c)
            fields += [("reason", .string(reason.rawValue)), ("duration_s", .number((duration * 10).rounded() / 10))]
            // `by` as the other acting events carry it: here the face that hung up or declined.
            if let who { fields.append(("by", .string(who.face.rawValue))) }
            whoField()
            if let takenAt { fields += [("desk", .string(takenAt.desk)), ("operator", .optional(takenAt.operatorName))] }
        case .callTransferred(let c, let to, let target, let ok, let error):
            callFields(c)
            fields += [("to", .string(to)), ("target", .optional(target)), ("ok", .bool(ok))]
            if let error { fields += [("error", .string(error))] }
        case .transferConsult(let c, let state, let to, let target, let consultCall, let error):
            callFields(c)
            fields += [("state", .string(state.rawValue)), ("to", .string(to)), ("target", .optional(target)),
                       ("consult_call", .optional(consultCall?.rawValue))]
            if let error { fields += [("error", .string(error))] }
        case .panelEvent(let panel, let kind, let state, let door):
            fields += [("panel", .string(panel)), ("kind", .string(kind)), ("state", .string(state))]
            if let door { fields.append(("door", .string(door))) }
        case .panelOpened(let o):
            fields += [("call", .null), ("panel", .string(o.panel)), ("door", .string(o.door)), ("method", .string(PanelOpening.method)),
                       ("by", .string(o.by.rawValue)), ("ok", .bool(true))]
            if let key = o.key { fields.append(("key", .string(key))) }
            if let flat = o.flat { fields.append(("flat", .string(flat))) }
        case .panelCalling(let panel, let flat, let via):
            fields += [("panel", .string(panel)), ("flat", .string(flat)), ("via", .string(via))]
        case .callAnsweredElsewhere(let panel, let flat):
            fields += [("panel", .string(panel)), ("flat", .string(flat)), ("by", .string(DoorTrigger.handset.rawValue))]
        case .panelUnreachable(let panel, let error):
            fields += [("panel", .string(panel)), ("error", .string(error))]
        case .panelReachable(let panel):
            fields += [("panel", .string(panel))]
        case .panelPolicy(let panel, let calls, let until):
            fields += [("panel", .string(panel)), ("calls", .bool(calls)),
                       ("guest_until", until.map { .string(Self.rfc3339($0)) } ?? .null)]
        case .siteUnreachable(let error):
            fields += [("error", .string(error))]
        case .siteReachable(let replayed):
            fields += [("replayed", .integer(replayed))]
        case .operatorEvent(let n):
            fields += [("operator", .string(n.operatorName)), ("kind", .string(n.kind))]
            // Both when known (issue 42): the door of the panel, and the camera that saw the entry.
            fields += [("door", .optional(n.door))] + (n.camera.map { [("camera", .string($0))] } ?? [])
            fields += [("who", .optional(n.who)), ("detail", .optional(n.detail)), ("uuid", .string(n.uuid)),
                       ("picture", .optional(n.picture))]
        case .operatorMessage(let name, let unread):
            fields += [("operator", .string(name)), ("unread", .integer(unread))]
        case .shareExpired(let expiry):
            fields += expiry.fields
        case .error(let message):
            fields += [("message", .string(message))]
        }
        return .object(fields)
    }

    public static func rfc3339(_ date: Date) -> String { RFC3339.string(date) }
}
