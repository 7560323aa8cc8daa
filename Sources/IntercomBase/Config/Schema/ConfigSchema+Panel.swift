import Foundation

/// `[panel NAME]`: how to reach a Beward panel (restart keys: the HTTP client is built once) and
/// how to treat its calls (live keys: the next call uses them).
extension ConfigSchema {
    typealias PanelKey = ConfigKey<PanelConfig, PanelConfig>

    static var panel: ConfigSection<PanelConfig, PanelConfig> {
        ConfigSection(
            kind: "panel",
            about: "A Beward door panel, one section each (`[panel entrance]`; names are unique, case-insensitively). "
                + "SIGHUP applies the call policies to the next call (calls in progress keep theirs); "
                + "a panel added or removed, or a change to how it is reached, needs a restart.",
            example: ConfigExampleLine(key: "[panel entrance]", ""),
            keys: panelConnectionKeys + panelCallerKeys + panelDoorKeys + panelPolicyKeys + panelMediaKeys,
            start: { name, _ in PanelConfig(name: name, url: "") },
            finish: { draft, _, _ throws(ConfigError) in draft },
            place: .named(\.panels, name: \.name))
    }

    private static var panelConnectionKeys: [PanelKey] {
        [
            .field("url", \.url, .httpURL(example: "url = http://192.168.1.50"), default: .note("required"), reload: .restart,
                   about: "The panel's HTTP base URL (`http://` or `https://`); user and password go in their own keys.",
                   example: [ConfigExampleLine("http://192.168.1.50", ["the panel's HTTP base URL (http or https)"], width: 9)],
                   whenMissing: "add 'url = http://PANEL-ADDRESS'"),
            .field("user", \.user, ConfigValueParser(type: "text (empty = admin)") { text, _ throws(ConfigValueError) in
                       text.isEmpty ? "admin" : text
                   }, default: .value("admin"), reload: .restart,
                   about: "The panel's HTTP user.",
                   example: [ConfigExampleLine("admin", width: 9)]),
            .field("password", \.password, ConfigValueParser.text.optional, default: .value(""), reload: .restart,
                   about: "The panel's HTTP password. A file that holds one must not be readable by others (`chmod 600`).",
                   example: [ConfigExampleLine("admin", width: 9)]),
            .field("auth", \.auth, .choice, default: .value("digest"), reload: .restart,
                   about: "The HTTP authentication answered. `basic` lets the panel ask for the password itself, "
                       + "readable on an `http://` network: only for firmware without Digest.",
                   example: [ConfigExampleLine("digest", ["digest | basic : basic lets the panel ask for the password",
                                                          "itself, readable on an http:// network; only for firmware",
                                                          "without Digest"], width: 9)]),
            .field("model", \.model, .choice, default: .value("auto"), reload: .restart,
                   about: "The panel family; `auto` reads `systeminfo_cgi`.",
                   example: [ConfigExampleLine("auto", ["auto | dks | ds  (auto reads systeminfo_cgi)"], width: 9)]),
        ]
    }

    private static var panelCallerKeys: [PanelKey] {
        [
            .field("source", \.source, sourceParser, default: .note("the host of `url`"), reload: .live,
                   about: "The IP addresses the panel's SIP packets come from, comma separated. A direct call is the "
                       + "panel's only when its packets come from there: From and Contact, which any caller can write, never suffice.",
                   example: [ConfigExampleLine("", ["the addresses the panel's SIP packets come from (comma",
                                                    "separated IPs); default: the host of url. A direct call",
                                                    "is the panel's only when its packets come from there:",
                                                    "From and Contact, which any caller can write, never suffice"], width: 9)]),
            .field("match", \.match, matchParser, default: .note("every call from the panel's sources"), reload: .live,
                   about: "Which calls from those addresses are this panel's: a prefix of the caller's SIP URI, or an IP "
                       + "(comma separated). Through the `[sip]` account's registrar, whose address is trusted, `match` alone names the panel.",
                   example: [ConfigExampleLine("sip:100001@", ["which calls from those addresses are this panel's: a prefix",
                                                               "of the caller's SIP URI, or an IP (comma separated; default:",
                                                               "all of them). Through the [sip] account's registrar, whose",
                                                               "address is trusted, match alone names the panel"], width: 9)]),
            .field("auto_open_interval", \.autoOpenInterval,
                   .decimal(0...86400, type: "seconds, 0 to 86400 (0 = no limit)",
                            message: { "'\($0)' is not a number of seconds from 0 to 86400" },
                            fix: "e.g. auto_open_interval = 5 (0 = no limit)"),
                   default: .value("5"), reload: .live,
                   about: "Automatic door openings (guest mode, hooks) happen at most once per this many seconds.",
                   example: [ConfigExampleLine("5", ["automatic door openings (guest mode, hooks) at most once",
                                                     "per this many seconds (0 = no limit)"])]),
            .field("dial", \.dial, ConfigValueParser.sipURI(example: "dial = sip:100001@192.168.1.50").optional,
                   default: .note("a `match` URI with a host, else `sip:` the IP of a `match` rule, `source` or `url`"),
                   reload: .live,
                   about: "The SIP URI `intercom call` dials (panels allow it with AllowIncoming/ckincall).",
                   example: [ConfigExampleLine("", ["the SIP URI `intercom call` dials (panels allow it with",
                                                    "AllowIncoming/ckincall); default: a match URI with a host,",
                                                    "else sip:IP of the match rule or the url"], width: 9)]),
        ]
    }

    private static var panelDoorKeys: [PanelKey] {
        [
            .field("dtmf.main", \.dtmfMain, .dtmf, default: .value("1"), reload: .live,
                   about: "The DTMF digits that open the main door during a call. Quote a lone `#`: `\"#\"`.",
                   example: [ConfigExampleLine("1", ["DTMF that opens each door during a call (0-9 * # A-D;"], width: 9)]),
            .field("dtmf.alt", \.dtmfAlt, .dtmf, default: .value("2"), reload: .live,
                   about: "The DTMF digits that open the second door.",
                   example: [ConfigExampleLine("2", ["write a lone '#' in quotes: \"#\")"], width: 9)]),
            .field("dtmf.duration_ms", \.dtmfTiming.durationMs, .integer(20...5000, unit: "milliseconds"),
                   default: .value("250"), reload: .live,
                   about: "How long each tone lasts.",
                   example: [ConfigExampleLine("250", ["how long each tone lasts"], width: 16)]),
            .field("dtmf.gap_ms", \.dtmfTiming.gapMs, .integer(0...10000, unit: "milliseconds"),
                   default: .value("500"), reload: .live,
                   about: "The pause between repeats of the sequence.",
                   example: [ConfigExampleLine("500", ["pause between repeats of the sequence"], width: 16)]),
            .field("dtmf.repeat", \.dtmfTiming.repeat, .integer(1...10, unit: "times"),
                   default: .value("1"), reload: .live,
                   about: "How many times the whole sequence is sent.",
                   example: [ConfigExampleLine("1", ["send the sequence this many times (1-10)"], width: 16)]),
            .field("open", \.open, .choice, default: .value("http"), reload: .live,
                   about: "How \"open the door\" is done in a call: the panel's HTTP API, DTMF, or both.",
                   example: [ConfigExampleLine("http", ["http | dtmf | both : how \"open door\" is done in a call"], width: 9)]),
        ]
    }

    /// The panels' addresses, never names: DNS answers could change who counts as the panel.
    static var sourceParser: ConfigValueParser<[String]> {
        ConfigValueParser(type: "comma-separated IP addresses") { text, _ throws(ConfigValueError) in
            var addresses: [String] = []
            for item in try ConfigDecoder.list(text) {
                var address = Substring(item)
                if address.first == "[" && address.last == "]" { address = address.dropFirst().dropLast() }
                guard IPLiteral.isValid(String(address)) else {
                    throw ConfigValueError("'\(item)' is not an IP address",
                                           fix: "list the addresses the panel's SIP packets come from, e.g. source = 192.168.1.50")
                }
                addresses.append(String(address))
            }
            return addresses
        }
    }

    static var matchParser: ConfigValueParser<[CallerMatch]> {
        ConfigValueParser(type: "comma-separated SIP URI prefixes or IP addresses") { text, _ throws(ConfigValueError) in
            var rules: [CallerMatch] = []
            for item in try ConfigDecoder.list(text) { rules.append(try CallerMatch(parsing: item)) }
            return rules
        }
    }
}
