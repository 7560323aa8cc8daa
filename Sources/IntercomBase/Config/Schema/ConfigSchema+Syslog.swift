/// `[syslog]`: where the panels' syslog is heard (docs/BEWARD.md). Read at start.
extension ConfigSchema {
    static var syslog: ConfigSection<SyslogSettings, SyslogSettings?> {
        ConfigSection(
            kind: "syslog",
            about: "The panels' syslog, heard by the daemon: a Beward panel says there who opened a door (a key, the "
                + "entry code, the exit button, an analogue handset, DTMF) and which flat it calls; these become "
                + "`door_opened` (`method` `panel`), `panel_calling` and `call_answered_elsewhere` events and journal "
                + "entries. One socket for every panel; a datagram is a panel's when it comes from the panel's address "
                + "(`source`, else `url`'s host), as a call is; anyone else's is ignored and counted. Syslog is "
                + "unauthenticated UDP: what it says is reported, never acted on (docs/SECURITY.md). "
                + "`intercom setup --syslog` shows the panel's setting (`rsyslog_cgi`) and sets it when asked.",
            example: ConfigExampleLine(key: "[syslog]", "", ["optional: hear the panels' syslog (who opened the door)"],
                                       commentedOut: true),
            keys: [
                .field("listen", \.listen, syslogListenParser, compare: \.?.listen, default: .value("udp:0.0.0.0:5514"), reload: .restart,
                       about: "The UDP address the panels send to (`udp:HOST:PORT`). Every panel is heard unless its section "
                           + "says `syslog = off`.",
                       example: [ConfigExampleLine("udp:0.0.0.0:5514", ["the panels' rsyslog target (udp only)"], width: 16,
                                                   commentedOut: true)]),
            ],
            start: { _, _ in SyslogSettings.defaults },
            finish: { draft, _, _ throws(ConfigError) in draft },
            place: .single(\.syslog))
    }

    /// `udp:HOST:PORT`, one address: the panels send syslog over UDP only (`rsyslog_cgi` `Protocol=udp`).
    private static var syslogListenParser: ConfigValueParser<ListenAddress> {
        ConfigValueParser(type: "`udp:HOST:PORT`") { text, _ throws(ConfigValueError) in
            let address = try ListenAddress(parsing: text)
            guard address.transport == .udp else {
                throw ConfigValueError("'\(text)': the panels send syslog over UDP only", fix: "e.g. listen = udp:0.0.0.0:5514")
            }
            guard IPLiteral.isValid(address.host) else {
                throw ConfigValueError("'\(text)': '\(address.host)' is not an IP address (the socket binds to one)",
                                       fix: "e.g. listen = udp:0.0.0.0:5514")
            }
            return address
        }
    }
}
