import Foundation

/// `[operator NAME]`: a SmartYard operator's mobile API and the subscriber's phone number.
extension ConfigDecoder {
    mutating func decodeOperator(_ section: INISection, name: String) throws(ConfigError) -> OperatorConfig {
        guard let apiEntry = section.entry("api") else {
            throw ConfigError(file: file, line: section.line, key: "api", section: section.label,
                              message: "is missing", fix: "add 'api = https://OPERATOR-HOST/mobile'")
        }
        let api = try value(apiEntry, section) { text throws(ConfigValueError) in
            try Self.panelURL(text, example: "api = https://api.operator.example/mobile")
        }
        var config = OperatorConfig(name: name, api: api)
        for entry in section.entries {
            switch entry.key {
            case "api":
                continue
            case "phone":
                config.phone = try value(entry, section) { text throws(ConfigValueError) in
                    if text.isEmpty { return nil }
                    guard let phone = OperatorConfig.normalizedPhone(text) else {
                        throw ConfigValueError("'\(text)' is not an 11-digit phone number",
                                               fix: "e.g. phone = 79123456781")
                    }
                    return phone
                }
            case "ca_file":
                config.caFile = try value(entry, section) { text throws(ConfigValueError) in
                    text.isEmpty ? nil : try Self.absolutePath(text, expander: expander)
                }
            default:
                warnUnknownKey(entry, section)
            }
        }
        return config
    }
}
