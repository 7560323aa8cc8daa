/// The control socket's requests, for the generated reference: one entry per `ControlCommandName`,
/// in its order (the switch below is exhaustive, so a new request cannot go undocumented).
public enum ControlCommandReference {
    public static let intro = "The daemon listens on `$XDG_RUNTIME_DIR/intercom/control.sock` (mode 0600; other users are refused; "
        + "`[daemon] socket` moves it). Each request is one JSON object on a line, such as `{\"command\":\"status\"}`; "
        + "an optional `id` (any JSON value) is echoed. Each reply is one line: `{\"id\":…,\"ok\":true,\"data\":…}` "
        + "or `{\"id\":…,\"ok\":false,\"error\":\"…\",\"code\":69}` (`code`: the exit code of the engine's error, when it has one). "
        + "`call` (an id such as `c1`) picks the call where one is taken; "
        + "without it the obvious call is meant. `intercom ctl` is the client."

    public static let all: [ReferenceEntry] = ControlCommandName.allCases.map(entry)

    static func entry(_ command: ControlCommandName) -> ReferenceEntry {
        let name = command.rawValue
        switch command {
        case .status: return ReferenceEntry(name, "The state: calls, panels, doors (`id`, `name`, `source`, `panel` or `operator`, `address`), "
                       + "`muted`, `speaker`, `device`, and the `screens` attached; with `[site]`, `site`: `reachable`, "
                       + "`error`, and `switches` (who switched what when: `panel`, `kind`, `value`, `desk`, `operator`, `at`).")
        case .answer: return ReferenceEntry(name, fields: "`call`", "Answer a ringing call.")
        case .site: return ReferenceEntry(name, "With `[site]`: the site's `desks`, each with `desk`, `online` (heard within 10 s), "
                       + "`on_duty`, `operator`, `current_call`, `last_seen`; and `nobody_on_duty`.")
        case .duty: return ReferenceEntry(name, fields: "`on` (true or false), `operator` (optional)",
                       "With `[site]`: this desk on duty or off, and who is on duty here; the other desks see it at once.")
        case .decline: return ReferenceEntry(name, fields: "`call`", "Decline a ringing call.")
        case .hangup: return ReferenceEntry(name, fields: "`call`", "End a call.")
        case .open: return ReferenceEntry(name, fields: "`panel` (a panel's name or any door id of `intercom doors`), `door` "
                       + "(`main`, `alt`, `light` or an output number), `by` (`ctl`, `hook`, or `key` for an attached screen's key)",
                       "Open a door: through the panel's HTTP API or DTMF in a call, or through an operator's API.")
        case .dtmf: return ReferenceEntry(name, fields: "`call`, `digits` (0-9, `*`, `#`, A-D)", "Send DTMF digits in a call.")
        case .mute: return ReferenceEntry(name, fields: "`on` (true, false; absent toggles)", "Mute or unmute the microphone.")
        case .speaker: return ReferenceEntry(name, fields: "`on` (true, false; absent toggles)",
                       "Play call audio on `[audio] speaker` (on) or `[audio] playback` (off).")
        case .call: return ReferenceEntry(name, fields: "`panel`", "Call a panel to look and talk.")
        case .transfer: return ReferenceEntry(name, fields: "`target` (a `[directory]` name or a `sip:` URI), `call`; `consult`, `complete`, `cancel` (true)",
                       "Pass an answered call on with a blind transfer (SIP REFER); with `consult`, attended: the call "
                       + "is held while the target is called, then `complete` hands it over (REFER with Replaces) or "
                       + "`cancel` returns to it.")
        case .calls: return ReferenceEntry(name, fields: "`on` (true, false: do not disturb), `panel`",
                       "Take a panel's calls or not; kept across restarts until the config's `calls` changes (`ctl calls`, MQTT).")
        case .guest: return ReferenceEntry(name, fields: "`until` (RFC 3339, or null for off), `panel`",
                       "Guest mode (\"wait for guests\") until a time, or off; kept like `calls` (`ctl guest`, MQTT).")
        case .handled: return ReferenceEntry(name, fields: "`entry` (a missed call's journal id), `by` (who; default `ctl`)",
                       "Take a missed call out of the queue of calls to return (`intercom log --unhandled`), keeping who did.")
        case .callback: return ReferenceEntry(name, fields: "`entry`, `by`",
                       "Call the panel of a missed call back and wait up to 30 s: answered, the entry is handled (`by`, \"called back\"); "
                       + "busy, refused or unanswered, it stays queued with `callback_failed` and the reply fails with `code` 69.")
        case .doors: return ReferenceEntry(name, "The doors `open` takes, as `status` lists them (`id`, `name`, `source`, `panel` or `operator`, `address`).")
        case .journal: return ReferenceEntry(name, fields: "`limit` (1-1000, default 20), `panel`, `unhandled` (true: missed calls nobody dealt with), `missed`",
                       "The newest entries of the daemon's journal, oldest first, as `intercom log --json` prints them.")
        case .events: return ReferenceEntry(name, fields: "`call`",
                       "Stream a `state` object, then every event (of one call when `call` is set) as `--events json` prints them.")
        case .attach: return ReferenceEntry(name, fields: "`screen` (a short name, e.g. `tui`)",
                       "A screen attaches: as `events`, and `status` lists it under `screens` while the connection lasts.")
        case .picture: return ReferenceEntry(name, fields: "`panel` or `video` (true), `width`, `height` (pixels; 0 stops), `fps` (0.2-30), `live`",
                       "Pictures for a screen: `{\"frame\":KEY,\"seq\":N,\"kind\":…,\"call\":…,\"jpeg\":BASE64}` lines, "
                       + "newest frame wins (a screen that reads slowly misses frames, never delays the daemon); a panel's "
                       + "lines carry `note` (why its live stream is not playing) and `problem` (why its snapshot failed) "
                       + "while there is one. A panel's stream is decoded at the largest size any screen asks (each side "
                       + "on its own) and plays live while any asks `live`; each screen gets its own size.")
        case .watchPanels: return ReferenceEntry(name, fields: "`panels` (names; `[]` stops), `fps` (0.2-30, default 1), `whole` (true: `watch`)",
                       "A screen shows panels without a call (the kiosk): the daemon polls their snapshots and plays "
                       + "their sub streams (the main ones while a `whole` screen shows one) for live `picture` subscriptions, "
                       + "for the union of every screen's panels.")
        case .watchCamera: return ReferenceEntry(name, fields: "`camera` (an operator camera id; null stops), `at` (RFC 3339: its recording)",
                       "A screen (`watch`) shows an operator camera: the daemon asks the operator and plays it once for every "
                       + "screen showing it; `picture` then takes the camera's id as `panel`.")
        case .unwatch: return ReferenceEntry(name, "Ends this connection's `watch_panels` and `watch_camera` at once, and takes back the sizes "
                       + "its `picture` subscriptions ask (a connection that closes ends them too); what other screens "
                       + "still show plays on.")
        case .shareExpiry: return ReferenceEntry(name, fields: "`operator`, `flat`, `phone` (11 digits), `until` (RFC 3339; null forgets)",
                       "The daemon keeps the end of a guest's access to an operator's flat (the server keeps none) and "
                           + "takes the access back when it is due (`share_expired`); `intercom share --until` sends it.")
        case .settings: return ReferenceEntry(name, fields: "`operator`, `flat` (id or number; null: the only flat), `set` (`KEY=VALUE` texts as `intercom settings` takes them)",
                       "An operator's flat settings, changed first when `set` has changes; the reply is `intercom settings --json`'s "
                           + "object (`ctl settings`, MQTT's switches, the screens).")
        }
    }
}
