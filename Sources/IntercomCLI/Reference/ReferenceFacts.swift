import IntercomBase

/// The environment and files every command shares, for the reference and the man page.
public enum ReferenceFacts {
    public static let description = "`intercom` is a SIP softphone for Beward IP door panels and SmartYard operators. "
        + "A panel calls over SIP; `intercom` recognises which panel it is (by the address its packets come from), "
        + "shows who is at the door, answers with two-way audio and the panel's video, opens the door (the panel's "
        + "HTTP API or DTMF) and hangs up. It runs as a full-screen terminal client (`intercom` or `intercom tui`) "
        + "and as a daemon for scripts and home automation (`intercom daemon`), driven through a control socket "
        + "(`intercom ctl`)."

    public static let commonOptions = "Every command takes `--config PATH`, `--log-level LEVEL` and `--help`; "
        + "`intercom help COMMAND` is `intercom COMMAND --help`. `intercom --version` prints the version."

    public static let errors = "Errors are one line on standard error, `intercom: what failed; what to do`, and never show a secret."

    public static let environment: [ReferenceEntry] = [
        ReferenceEntry("INTERCOM_CONFIG", "The config file when `--config` is not given."),
        ReferenceEntry("XDG_CONFIG_HOME", "Where `intercom/config.ini` is looked for (default `~/.config`)."),
        ReferenceEntry("XDG_DATA_HOME", "Where the journal and its pictures are kept, in `intercom/` (default `~/.local/share`)."),
        ReferenceEntry("XDG_STATE_HOME", "Where operator tokens (`intercom/operators/`), the do-not-disturb and guest switches (`intercom/switches.json`) and the terminal client's `intercom/tui.log` go (default `~/.local/state`)."),
        ReferenceEntry("XDG_RUNTIME_DIR", "Where the control socket lives (`intercom/control.sock`)."),
        ReferenceEntry("INTERCOM_DATA_DIR", "A folder whose `ringtones/` holds the ringtones, before the installed `share/intercom/ringtones`."),
        ReferenceEntry("INTERCOM_EVENT, INTERCOM_PANEL, INTERCOM_CALL, INTERCOM_FROM, INTERCOM_JSON, INTERCOM_SNAPSHOT, INTERCOM_WHO",
                       "Set for a hook (`[hooks] on_EVENT`): the event's name, panel, call, caller, the whole event as JSON, "
                           + "who acted (`call_answered`, `door_opened`, `call_ended`: the event's `who` in words, e.g. `screen 2 (kiosk, anna)`), "
                           + "and the call's newest picture in the journal (`on_call_incoming` waits up to `[hooks] snapshot_wait_ms` "
                           + "for the first one; unset when none came in time). `intercom ctl open` run from a hook says so (`by: hook`)."),
    ]

    public static let files: [ReferenceEntry] = [
        ReferenceEntry("~/.config/intercom/config.ini", "The config (see `intercom-config`(5), `intercom config --example`)."),
        ReferenceEntry("~/.local/share/intercom/", "The journal (SQLite) and the calls' pictures."),
        ReferenceEntry("~/.local/state/intercom/", "The state folder (0700; our own 0755 one is tightened): `switches.json`, the switches made at run time, kept across restarts; a switch that cannot be saved here is refused."),
        ReferenceEntry("~/.local/state/intercom/operators/", "Operator tokens and the device id (0600 files in a 0700 folder)."),
        ReferenceEntry("$XDG_RUNTIME_DIR/intercom/control.sock", "The daemon's control socket."),
        ReferenceEntry("PREFIX/share/intercom/ringtones/", "The ringtones `[audio] ringtone` names."),
        ReferenceEntry("PREFIX/lib/systemd/user/intercom.service", "The systemd user unit: `systemctl --user enable --now intercom`."),
    ]
}
