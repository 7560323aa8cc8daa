/// `[mqtt]`: MQTT with Home Assistant discovery. Read at start; a change takes a restart.
extension ConfigSchema {
    static var mqtt: ConfigSection<MQTTSettings, MQTTSettings?> {
        ConfigSection(
            kind: "mqtt",
            about: "MQTT with Home Assistant discovery: the daemon (or the terminal client that records the journal) "
                + "publishes a device per panel with its doors, ring, picture and switches, and acts on the command "
                + "topics (docs/MQTT.md). Anyone who may publish to these topics on the broker can open the doors: "
                + "protect them with the broker's ACLs and TLS.",
            example: ConfigExampleLine(key: "[mqtt]", "", ["optional: MQTT with Home Assistant discovery (daemon)"],
                                       commentedOut: true),
            keys: [
                MQTTKey("url", type: "mqtt:// or mqtts:// URL (HOST[:PORT]), no user or password in it",
                        default: .note("required"), reload: .restart,
                        about: "The broker: `mqtt://HOST[:PORT]` (port 1883) or `mqtts://HOST[:PORT]` (TLS, port 8883). "
                            + "`mqtt://` only to a loopback address (127.0.0.0/8, ::1, `localhost`) unless `allow_plain = yes`.",
                        example: [ConfigExampleLine("mqtt://127.0.0.1:1883", ["mqtt:// or mqtts://"], width: 16, commentedOut: true)],
                        whenMissing: "add 'url = mqtts://BROKER-HOST:8883' (or mqtt://127.0.0.1:1883 for a broker on this machine)",
                        decode: { draft, entry, _ throws(ConfigValueError) in draft.url = try mqttURL(entry.value) },
                        differs: { $0?.url != $1?.url }),
                text("user", \.user, about: "The broker's user name; empty = connect without one.",
                     example: ConfigExampleLine("", width: 16, commentedOut: true)),
                text("password", \.password,
                     about: "The broker's password. A file that holds one must not be readable by others (`chmod 600`); "
                         + "it is never printed or logged.",
                     example: ConfigExampleLine("", width: 16, commentedOut: true)),
                MQTTKey("topic_prefix", type: "topic level(s) without `+`, `#` or a leading/trailing `/`",
                        default: .value("intercom"), reload: .restart,
                        about: "The root of the intercom's topics: `PREFIX/HOST/…` (HOST: this machine's name).",
                        example: [ConfigExampleLine("intercom", width: 16, commentedOut: true)],
                        decode: { draft, entry, _ throws(ConfigValueError) in draft.topicPrefix = try topic(entry.value, allowEmpty: false) },
                        differs: { $0?.topicPrefix != $1?.topicPrefix }),
                MQTTKey("discovery_prefix", type: "topic prefix (empty = no discovery)",
                        default: .value("homeassistant"), reload: .restart,
                        about: "Home Assistant's discovery prefix; empty publishes no discovery configs (events and "
                            + "commands still work).",
                        example: [ConfigExampleLine("homeassistant", ["empty: no discovery messages"], width: 16, commentedOut: true)],
                        decode: { draft, entry, _ throws(ConfigValueError) in
                            let value = try topic(entry.value, allowEmpty: true)
                            draft.discoveryPrefix = value.isEmpty ? nil : value
                        },
                        differs: { $0?.discoveryPrefix != $1?.discoveryPrefix }),
                MQTTKey("client_id", type: "1 to 64 printable ASCII characters", default: .note("`intercom-HOST`"),
                        reload: .restart,
                        about: "The MQTT client id; a second client with the same id makes the broker drop the first.",
                        example: [ConfigExampleLine("", ["empty = intercom-HOST"], width: 16, commentedOut: true)],
                        decode: { draft, entry, _ throws(ConfigValueError) in
                            guard !entry.value.isEmpty else { draft.clientID = nil; return }
                            guard entry.value.count <= 64, entry.value.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }) else {
                                throw ConfigValueError("'\(entry.value)' is not 1 to 64 printable ASCII characters", fix: "e.g. client_id = intercom-hall")
                            }
                            draft.clientID = entry.value
                        },
                        differs: { $0?.clientID != $1?.clientID }),
                MQTTKey("ca_file", type: ConfigValueParser<String>.absolutePath.type, default: .note("the system store"),
                        reload: .restart,
                        about: "Trust this CA certificate (PEM) for `mqtts://`; verification is never switched off. A file "
                            + "that is missing, unreadable or holds no PEM certificate is a config error (`config --check`, "
                            + "`doctor`), and the client checks it again before each connect: no broker is ever reached "
                            + "without TLS.",
                        example: [ConfigExampleLine("", ["for mqtts://; empty = the system store"], width: 16, commentedOut: true)],
                        decode: { draft, entry, context throws(ConfigValueError) in
                            draft.caFile = try ConfigValueParser.absolutePath.optional.parse(entry.value, context.parse)
                        },
                        differs: { $0?.caFile != $1?.caFile }),
                MQTTKey("allow_plain", type: "yes | no", default: .value("no"), reload: .restart,
                        about: "`yes` lets `url` be `mqtt://` (no TLS) to a broker on another machine. Then the broker's "
                            + "password and every door command cross the network in clear: anyone on the path can read the "
                            + "password and open the doors. Use `mqtts://` instead where the broker can; a host name counts "
                            + "as another machine (it is not resolved at load), `localhost` does not.",
                        example: [ConfigExampleLine("no", ["yes = allow mqtt:// to another machine (in clear!)"], width: 16, commentedOut: true)],
                        decode: { draft, entry, _ throws(ConfigValueError) in draft.allowPlain = try ConfigDecoder.onOff(entry.value) },
                        differs: { $0?.allowPlain != $1?.allowPlain }),
                MQTTKey("guest_minutes", type: "minutes, 1 to 10080", default: .value("120"), reload: .restart,
                        about: "How long guest mode lasts when its switch is turned on over MQTT.",
                        example: [ConfigExampleLine("120", ["guest mode switched on over MQTT lasts this long"], width: 16, commentedOut: true)],
                        decode: { draft, entry, _ throws(ConfigValueError) in
                            draft.guestMinutes = try ConfigDecoder.integer(entry.value, in: 1...10080, unit: "minutes")
                        },
                        differs: { $0?.guestMinutes != $1?.guestMinutes }),
            ],
            start: { _, _ in MQTTSettings(url: "") },
            finish: { draft, section, file throws(ConfigError) in
                // As the operator API's plain http off loopback: refused, not warned, unless said so.
                if draft.plainOffLoopback && !draft.allowPlain {
                    let url = section.entries.last { $0.key == "url" }
                    throw ConfigError(file: file, line: url?.line ?? section.line, key: "url", section: section.label,
                                      message: "'\(draft.url)' is plain MQTT to \(draft.host), another machine: the password "
                                          + "and every door command would cross the network in clear",
                                      fix: "use mqtts:// (TLS), or a loopback broker, or accept the risk with 'allow_plain = yes'")
                }
                return draft
            },
            place: .single(\.mqtt))
    }

    typealias MQTTKey = ConfigKey<MQTTSettings, MQTTSettings?>

    private static func text(_ name: String, _ path: WritableKeyPath<MQTTSettings, String?>, about: String,
                             example: ConfigExampleLine) -> MQTTKey {
        MQTTKey(name, type: "text (empty = not set)", default: .value(""), reload: .restart, about: about,
                example: [example],
                decode: { draft, entry, _ throws(ConfigValueError) in draft[keyPath: path] = entry.value.isEmpty ? nil : entry.value },
                differs: { $0?[keyPath: path] != $1?[keyPath: path] })
    }

    static func mqttURL(_ text: String) throws(ConfigValueError) -> String {
        let example = "url = mqtts://192.168.1.10:8883"
        let lower = text.lowercased()
        guard lower.hasPrefix("mqtt://") || lower.hasPrefix("mqtts://") else {
            throw ConfigValueError("must start with mqtt:// or mqtts://", fix: "e.g. \(example)")
        }
        guard !text.contains(where: \.isWhitespace) else { throw ConfigValueError("contains spaces", fix: "e.g. \(example)") }
        let address = URLAddress(parsing: text)
        if address?.hasCredentials == true {
            throw ConfigValueError("must not contain a user or password", fix: "put them in the 'user' and 'password' keys")
        }
        guard address?.portIsValid == true else {
            throw ConfigValueError("has no host or a bad port", fix: "e.g. \(example)")
        }
        var url = Substring(text)
        while url.hasSuffix("/") { url = url.dropLast() }
        return String(url)
    }

    static func topic(_ text: String, allowEmpty: Bool) throws(ConfigValueError) -> String {
        if text.isEmpty {
            if allowEmpty { return text }
            throw ConfigValueError("is empty", fix: "e.g. topic_prefix = intercom")
        }
        guard !text.contains(where: { $0 == "+" || $0 == "#" || $0.isWhitespace || $0.isNewline }),
              !text.hasPrefix("/"), !text.hasSuffix("/"), !text.contains("//") else {
            throw ConfigValueError("'\(text)' is not a topic prefix (no +, #, spaces, or leading, trailing or double /)",
                                   fix: "e.g. topic_prefix = intercom")
        }
        return text
    }
}
