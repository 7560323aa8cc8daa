import Foundation

/// `[panel NAME]`: how to reach a Beward panel, which calls are its, and how to treat them.
extension ConfigDecoder {
    mutating func decodePanel(_ section: INISection, name: String) throws(ConfigError) -> PanelConfig {
        guard let urlEntry = section.entry("url") else {
            throw ConfigError(file: file, line: section.line, key: "url", section: section.label,
                              message: "is missing", fix: "add 'url = http://PANEL-ADDRESS'")
        }
        let url = try value(urlEntry, section) { text throws(ConfigValueError) in try Self.panelURL(text) }
        var panel = PanelConfig(name: name, url: url)

        for entry in section.entries {
            switch entry.key {
            case "url":
                continue
            case "user":
                panel.user = entry.value.isEmpty ? "admin" : entry.value
            case "password":
                panel.password = entry.value.isEmpty ? nil : entry.value
            case "model":
                panel.model = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.choice(text, PanelModel.self)
                }
            case "match":
                panel.match = try value(entry, section) { text throws(ConfigValueError) in
                    var rules: [CallerMatch] = []
                    for item in try Self.list(text) { rules.append(try CallerMatch(parsing: item)) }
                    return rules
                }
            case "source":
                panel.source = try value(entry, section) { text throws(ConfigValueError) in
                    var addresses: [String] = []
                    for item in try Self.list(text) {
                        var address = Substring(item)
                        if address.first == "[" && address.last == "]" { address = address.dropFirst().dropLast() }
                        // An address, not a name: DNS answers could change who counts as the panel.
                        guard IPLiteral.isValid(String(address)) else {
                            throw ConfigValueError("'\(item)' is not an IP address",
                                                   fix: "list the addresses the panel's SIP packets come from, e.g. source = 192.168.1.50")
                        }
                        addresses.append(String(address))
                    }
                    return addresses
                }
            case "auto_open_interval":
                panel.autoOpenInterval = try value(entry, section) { text throws(ConfigValueError) in
                    guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86400 else {
                        throw ConfigValueError("'\(text)' is not a number of seconds from 0 to 86400",
                                               fix: "e.g. auto_open_interval = 5 (0 = no limit)")
                    }
                    return seconds
                }
            case "dtmf.main":
                panel.dtmfMain = try value(entry, section) { text throws(ConfigValueError) in try Self.dtmf(text) }
            case "dtmf.alt":
                panel.dtmfAlt = try value(entry, section) { text throws(ConfigValueError) in try Self.dtmf(text) }
            case "dtmf.duration_ms":
                panel.dtmfTiming.durationMs = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.integer(text, in: 20...5000, unit: "milliseconds")
                }
            case "dtmf.gap_ms":
                panel.dtmfTiming.gapMs = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.integer(text, in: 0...10000, unit: "milliseconds")
                }
            case "dtmf.repeat":
                panel.dtmfTiming.repeat = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.integer(text, in: 1...10, unit: "times")
                }
            case "open":
                panel.open = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.choice(text, DoorOpenMethod.self)
                }
            case "peephole_fps":
                panel.peepholeFPS = try value(entry, section) { text throws(ConfigValueError) in
                    guard let fps = Double(text), fps.isFinite, fps > 0, fps <= 30 else {
                        throw ConfigValueError("'\(text)' is not a frame rate above 0 and at most 30",
                                               fix: "e.g. peephole_fps = 3")
                    }
                    return fps
                }
            case "calls":
                panel.calls = try value(entry, section) { text throws(ConfigValueError) in try Self.onOff(text) }
            case "auto_answer":
                panel.autoAnswer = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.autoAnswer(text)
                }
            case "guest_until":
                panel.guestUntil = try value(entry, section) { text throws(ConfigValueError) in
                    text.isEmpty ? nil : try GuestTimeParser.parse(text, timeZone: timeZone)
                }
            case "tls_insecure":
                panel.tlsInsecure = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.onOff(text)
                }
            case "ca_file":
                panel.caFile = try value(entry, section) { text throws(ConfigValueError) in
                    text.isEmpty ? nil : try Self.absolutePath(text, expander: expander)
                }
            case "auth":
                panel.auth = try value(entry, section) { text throws(ConfigValueError) in
                    try Self.choice(text, PanelAuth.self)
                }
            case "dial":
                panel.dial = try value(entry, section) { text throws(ConfigValueError) in
                    text.isEmpty ? nil : try Self.sipURI(text, example: "dial = sip:100001@192.168.1.50")
                }
            case "stream":
                panel.stream = try value(entry, section) { text throws(ConfigValueError) in
                    if text.isEmpty { return nil }
                    guard text == "main" || text == "sub" else {
                        throw ConfigValueError("'\(text)' is not main or sub", fix: "use main or sub")
                    }
                    return text
                }
                if panel.stream != nil {
                    // Which value Beward's sip_cgi StreamType takes is not known for sure (see
                    // beward-http-api.md); writing a wrong one could blank a real panel's video.
                    warnings.append(ConfigWarning(
                        file: file, line: entry.line, key: entry.key,
                        message: "[\(section.label)] stream is not sent to the panel yet; choose the SIP video stream (StreamType) in the panel's web interface"))
                }
            default:
                warnUnknownKey(entry, section)
            }
        }
        return panel
    }
}
