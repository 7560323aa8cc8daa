/// What each event carries and means, for the generated reference. A switch, so a new event does
/// not compile until it is documented here.
extension EventName {
    /// Fields every event has first.
    public static let commonFields = "`event`, `time` (RFC 3339 with milliseconds)"
    /// Fields every call event has after those.
    public static let callFields = "`call` (an id such as `c1`), `panel` (the panel's name or an operator's door id; null for an unknown caller), `from` (the caller's SIP URI)"

    public var reference: ReferenceEntry {
        switch self {
        case .started:
            ReferenceEntry(rawValue, fields: "`listen` (the SIP addresses), `version`",
                           "The daemon is up and listening.")
        case .registered:
            ReferenceEntry(rawValue, fields: "`account`, `reason`",
                           "The registrar accepted `[sip] account`.")
        case .registrationFailed:
            ReferenceEntry(rawValue, fields: "`account`, `reason`",
                           "The registrar refused or did not answer; registration is retried (1 s doubling to 60 s).")
        case .callIncoming:
            ReferenceEntry(rawValue, fields: "call fields",
                           "A panel (or an operator's door) is ringing.")
        case .callOutgoing:
            ReferenceEntry(rawValue, fields: "call fields, `to` (the URI dialled)",
                           "We call a panel (`intercom call`, `ctl call`).")
        case .peepholeFrame:
            ReferenceEntry(rawValue, fields: "call fields, `width`, `height`, `fps`",
                           "A snapshot of the ringing panel was polled (at most one event a second).")
        case .callAnswered:
            ReferenceEntry(rawValue, fields: "call fields, `by` (`user`, `notification`, `auto`, `guest_mode`, `remote`), `who` (the face, below; none for `remote`)",
                           "The call was answered: by a person (at a screen or `ctl`, or with the desktop notification's button), by `auto_answer`, by guest mode, or by the panel we called. "
                               + "`who` says which face: `{\"face\": \"screen\", \"screen\": 2, \"kind\": \"kiosk\", \"user\": \"anna\"}` "
                               + "(`face`: `screen`, `ctl`, `mqtt`, `notification`, `guest_mode`, `auto`; `screen`: an attached screen's number as "
                               + "`ctl status` lists it; `kind`: `tui`, `kiosk`, `watch`; `user`: the host user, from the socket's peer credentials).")
        case .doorOpened:
            ReferenceEntry(rawValue,
                           fields: "call fields (or `call` null and `panel`), `door`, `method` (`http`, `dtmf`, `operator`), "
                               + "`by` (`key`, `ctl`, `guest_mode`, `hook`, `mqtt`, `notification`), `who` (the face that asked, as in `call_answered`), "
                               + "`ok`, `error` when it failed; from the panel's syslog (`[syslog]`): `method` `panel`, `call` null, "
                               + "`by` `key` (with `key`: the RFID key's id), `code`, `button`, `handset` or `dtmf`, `flat` when the panel names one",
                           "A door opening was tried; an operator's `ok` means it accepted the request. With `method` `panel` the "
                               + "panel opened the door by itself and said so in its syslog (a DTMF opening of ours it confirms is not repeated).")
        case .audioChanged:
            ReferenceEntry(rawValue, fields: "`muted`, `speaker` (booleans), `device` (where call audio plays now)",
                           "The microphone was muted or unmuted, or call audio moved between `[audio] playback` and `speaker`.")
        case .callEnded:
            ReferenceEntry(rawValue,
                           fields: "call fields, `reason` (`hangup`, `remote_hangup`, `declined`, `missed`, `answered_elsewhere`, "
                               + "`transferred`, `busy`, `error`), `duration_s`, `who` when a face of ours hung up or declined (as in `call_answered`); "
                               + "at a desk of a site, `desk` and `operator` when another desk took it (`answered_elsewhere`)",
                           "The call is over. `busy`: refused 486 before it rang, because `[sip] max_calls` calls were "
                               + "held (it follows its own `call_incoming`; journaled as missed).")
        case .callTransferred:
            ReferenceEntry(rawValue, fields: "call fields, `to` (the URI), `target` (the `[directory]` name or null), `ok`, `error`",
                           "A transfer of the call was tried: blind (SIP REFER: `t`, `ctl transfer`) or attended "
                               + "(REFER with Replaces: `T`, `ctl transfer --complete`); a failed one is journaled with its reason.")
        case .transferConsult:
            ReferenceEntry(rawValue,
                           fields: "call fields (the call on hold), `state` (`calling`, `answered`, `transferring`, `cancelled`, "
                               + "`failed`), `to` (the URI), `target` (the `[directory]` name or null), `consult_call`, `error` when failed",
                           "A step of an attended transfer (`T`, `ctl transfer --consult`): the call is on hold while the target "
                               + "is called; after `cancelled` or `failed` it is taken off hold. Journaled when it fails or is cancelled.")
        case .panelEvent:
            ReferenceEntry(rawValue, fields: "`panel`, `kind` (`ding`, `motion`, `door`), `state` (`on`, `off`), `door` for a `door` line "
                               + "that names its relay (`main`, `alt`, `light`: relay 1, 2, 3)",
                           "The panel's alarm stream reported something.")
        case .panelCalling:
            ReferenceEntry(rawValue, fields: "`panel`, `flat` (the apartment, or the SIP number the panel dials), `via` (`sip`, `cms`)",
                           "The panel's syslog says it calls a flat (`[syslog]`): by SIP or on the analogue (CMS) line.")
        case .callAnsweredElsewhere:
            ReferenceEntry(rawValue, fields: "`panel`, `flat`, `by` (`handset`)",
                           "The panel's syslog says the flat's analogue handset took its call (`[syslog]`); its call ringing here "
                               + "then ends `answered_elsewhere`, not `missed`.")
        case .panelUnreachable:
            ReferenceEntry(rawValue, fields: "`panel`, `error`", "The panel's alarm stream was lost.")
        case .panelReachable:
            ReferenceEntry(rawValue, fields: "`panel`", "The panel answers again.")
        case .panelPolicy:
            ReferenceEntry(rawValue, fields: "`panel`, `calls` (false = do not disturb), `guest_until` (RFC 3339 or null)",
                           "Do-not-disturb or guest mode was switched (`ctl calls`, `ctl guest`, MQTT); kept across restarts.")
        case .siteUnreachable:
            ReferenceEntry(rawValue, fields: "`error`",
                           "The site's store (`[site]`) stopped answering: this desk goes on alone (calls, doors, its last "
                               + "switches) and keeps what it writes for the site. Once per outage.")
        case .siteReachable:
            ReferenceEntry(rawValue, fields: "`replayed` (how many kept writes were sent)",
                           "The site's store answers again; what this desk kept meanwhile was sent to it, in order.")
        case .operatorEvent:
            ReferenceEntry(rawValue,
                           fields: "`operator`, `kind` (the log entry's event: `call_missed`, `call_answered`, `opened_by_key`, "
                               + "`opened_by_app`, `opened_by_face`, `opened_by_code`, `gate_by_call`, `opened_by_plate`), "
                               + "`door` (the door's id, or null), `camera` (the camera that saw it, when the operator names one), `who` (`key`, `face`, `plate`, `code`, `app`, `call`), "
                               + "`detail` (a phone, key or code, `plate A123BC`, `face 17`, or null), `uuid`, "
                               + "`picture` (the kept preview's path, or null); `time` is the entry's",
                           "The daemon's round over an operator's event log (`[operator] log_interval`, SIGHUP) found a new entry.")
        case .operatorMessage:
            ReferenceEntry(rawValue, fields: "`operator`, `unread` (the number of unread messages)",
                           "The operator's unread messages grew (`intercom inbox` reads them).")
        case .shareExpired:
            ReferenceEntry(rawValue, fields: "`operator`, `flat`, `address`, `phone`, `until` (the end that was kept)",
                           "The daemon took back a guest's access to an operator's flat at the end `intercom share --until` "
                               + "asked it to keep (the operator's server keeps none); journaled.")
        case .error:
            ReferenceEntry(rawValue, fields: "`message`", "Something failed that belongs to no call.")
        }
    }
}
