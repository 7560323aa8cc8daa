/// `[operator NAME]`: a SmartYard operator's mobile API and the subscriber's phone number. The
/// daemon does not use it; `intercom login` and the operator commands read it when they run.
extension ConfigSchema {
    static var `operator`: ConfigSection<OperatorConfig, OperatorConfig> {
        ConfigSection(
            kind: "operator",
            about: "A SmartYard operator account: the subscriber's phone number, not a panel's password. "
                + "`intercom login NAME` keeps its token in `$XDG_STATE_HOME/intercom/` (0600), never in this file.",
            example: ConfigExampleLine(key: "[operator home]", "", ["a SmartYard operator account: the subscriber's phone"],
                                       commentedOut: true),
            keys: [
                .field("api", \.api, .httpURL(example: "api = https://api.operator.example/mobile"),
                       default: .note("required"), reload: .perCommand,
                       about: "The operator's mobile API base URL.",
                       example: [ConfigExampleLine("https://api.operator.example/mobile", ["number, not a panel's password; the"],
                                                   width: 5, commentedOut: true)],
                       whenMissing: "add 'api = https://OPERATOR-HOST/mobile'"),
                .field("phone", \.phone, phoneParser, default: .value(""), reload: .perCommand,
                       about: "The subscriber's phone number: 11 digits (spaces, `-`, `(`, `)` and `+` allowed; a leading 8 becomes 7).",
                       example: [ConfigExampleLine("79123456781", ["operator's mobile API base URL. `intercom login home`"],
                                                   width: 5, commentedOut: true)]),
                .field("ca_file", \.caFile, ConfigValueParser.absolutePath.optional, default: .note("the system store"),
                       reload: .perCommand,
                       about: "A private CA certificate (PEM) for the API's `https`; verification is never switched off.",
                       example: [ConfigExampleLine("", ["keeps its token in $XDG_STATE_HOME/intercom/ (0600)"],
                                                   width: 5, commentedOut: true)]),
            ],
            start: { name, _ in OperatorConfig(name: name, api: "") },
            finish: { draft, _, _ throws(ConfigError) in draft },
            place: .named(\.operators, name: \.name))
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
