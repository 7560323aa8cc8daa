import Foundation

/// `[operator NAME]`: a SmartYard operator's mobile API and the subscriber's phone number. The
/// operator commands read it when they run; the daemon lists and opens the operator's doors and
/// names calls from its panels, so a new operator or another `api` takes a restart there.
extension ConfigSchema {
    static var `operator`: ConfigSection<OperatorConfig, OperatorConfig> {
        ConfigSection(
            kind: "operator",
            about: "A SmartYard operator account: the subscriber's phone number, not a panel's password. "
                + "`intercom login NAME` keeps its token in `$XDG_STATE_HOME/intercom/` (0600), never in this file.",
            example: ConfigExampleLine(key: "[operator home]", "", ["a SmartYard operator account: the subscriber's phone"],
                                       commentedOut: true),
            keys: [
                .field("api", \.api, apiParser,
                       default: .note("required"), reload: .restart,
                       about: "The operator's mobile API base URL. `http://` only to a loopback address "
                           + "(127.0.0.0/8, ::1, localhost): the login token would travel in clear.",
                       example: [ConfigExampleLine("https://api.operator.example/mobile", ["number, not a panel's password; the"],
                                                   width: 5, commentedOut: true)],
                       whenMissing: "add 'api = https://OPERATOR-HOST/mobile'"),
                .field("phone", \.phone, phoneParser, default: .value(""), reload: .perCommand,
                       about: "The subscriber's phone number: 11 digits (spaces, `-`, `(`, `)` and `+` allowed; a leading 8 becomes 7).",
                       example: [ConfigExampleLine("79123456781", ["operator's mobile API base URL. `intercom login home`"],
                                                   width: 5, commentedOut: true)]),
                .field("ca_file", \.caFile, ConfigValueParser.absolutePath.optional, default: .note("the system store"),
                       reload: .restart,
                       about: "A private CA certificate (PEM) for the API's `https`; verification is never switched off.",
                       example: [ConfigExampleLine("", ["keeps its token in $XDG_STATE_HOME/intercom/ (0600)"],
                                                   width: 5, commentedOut: true)]),
                .field("open", \.open, .choice, default: .value("dtmf"), reload: .live,
                       about: "How `o` opens the door in a call from this operator's panel (one that came through "
                           + "`[sip] account`, the flat's `4…` account): the door's DTMF digit `1` in the call, as the "
                           + "operator's apps do, or a request to the operator's API.",
                       example: [ConfigExampleLine("dtmf", ["o in a call from its panel: dtmf (digit 1) | api"],
                                                   width: 5, commentedOut: true)]),
                .field("timezone", \.timeZone, zoneParser, default: .note("learned from the server"), reload: .perCommand,
                       about: "The zone the operator's server writes its times in (log entries, `auto_open`): an IANA "
                           + "name or an offset such as `+03:00`. Unset, the client uses `ext/options` `timeZone` "
                           + "(Moscow when absent) until it has seen the log entry of one of its own openings, which "
                           + "shows what the server really writes (the server's PHP zone, often UTC, not always the "
                           + "one `ext/options` names); `intercom doctor` reports a difference.",
                       example: [ConfigExampleLine("", ["zone of the server's times (empty = learn it)"],
                                                   width: 5, commentedOut: true)]),
                .field("language", \.language, languageParser, default: .note("from `LANG`"), reload: .perCommand,
                       about: "`Accept-Language` of every request: the server writes its messages in it, also those "
                           + "it sends another user because of a request (the guest `intercom share` adds).",
                       example: [ConfigExampleLine("", ["ru, en, … (empty = from LANG)"],
                                                   width: 5, commentedOut: true)]),
                .field("log_interval", \.logInterval,
                       .decimal(1...86400, type: "seconds, 1 to 86400",
                                message: { "'\($0)' is not a number of seconds from 1 to 86400" },
                                fix: "e.g. log_interval = 60"),
                       default: .value("60"), reload: .live,
                       about: "Seconds between the daemon's rounds over the operator's event log (each new entry an "
                           + "`operator_event`) and its unread messages (`operator_message` when their number grows). "
                           + "SIGHUP starts a round at once. The operator itself fills its log about once a minute.",
                       example: [ConfigExampleLine("60", ["seconds between the daemon's log and inbox rounds"],
                                                   width: 5, commentedOut: true)]),
            ],
            start: { name, _ in OperatorConfig(name: name, api: "") },
            finish: { draft, _, _ throws(ConfigError) in draft },
            place: .named(\.operators, name: \.name))
    }

    /// An http(s) URL; `http://` only to loopback, since every request carries the bearer token.
    static var apiParser: ConfigValueParser<String> {
        let example = "api = https://api.operator.example/mobile"
        let url = ConfigValueParser<String>.httpURL(example: example)
        return ConfigValueParser(type: "https:// URL (http:// only to a loopback address), no user or password in it") {
            text, context throws(ConfigValueError) in
            let api = try url.parse(text, context)
            if api.lowercased().hasPrefix("http://"), let host = PanelConfig.host(ofURL: api), !ListenReach.isLoopback(host) {
                throw ConfigValueError("'\(api)' is plain http to \(host)",
                                       fix: "use https:// or a loopback address: the token would travel in clear")
            }
            return api
        }
    }

    static var zoneParser: ConfigValueParser<TimeZone?> {
        ConfigValueParser(type: "zone name or UTC offset (empty = learned)") { text, _ throws(ConfigValueError) in
            if text.isEmpty { return nil }
            guard let zone = OperatorConfig.zone(text) else {
                throw ConfigValueError("'\(text)' is not a time zone", fix: "e.g. timezone = Europe/Moscow, UTC or +03:00")
            }
            return zone
        }
    }

    static var languageParser: ConfigValueParser<String?> {
        ConfigValueParser(type: "language tag (empty = from LANG)") { text, _ throws(ConfigValueError) in
            if text.isEmpty { return nil }
            guard text.count <= 35, text.first?.isLetter == true,
                  text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw ConfigValueError("'\(text)' is not a language tag", fix: "e.g. language = ru or language = en")
            }
            return text
        }
    }

    static var phoneParser: ConfigValueParser<String?> {
        ConfigValueParser(type: "11-digit phone number (empty = not set)") { text, _ throws(ConfigValueError) in
            if text.isEmpty { return nil }
            guard let phone = OperatorConfig.normalizedPhone(text) else {
                throw ConfigValueError("'\(text)' is not an 11-digit phone number", fix: "e.g. phone = 79123456781")
            }
            return phone
        }
    }
}
