import Foundation
import IntercomBase

/// An operator flat's settings on MQTT: `<root>/operator/<name>/settings/<key>/set` and `/state`
/// (retained) for each key a person switches from home: `cms`, `voip`, `auto_open` (ON: guest mode
/// for a day, as the app's switch), `disable_plog` and `hidden_plog` (the owner's; the engine refuses
/// them for another member, as the server would ignore them) as switches, and `white_rabbit` as a
/// select of the server's minutes. A command is `ctl settings`'s (`IntercomCommand.flatSettings`,
/// the login's only flat); its reply, the settings read back, is every state.
enum OperatorSettingsTopics {
    static let switches = ["cms", "voip", "auto_open", "disable_plog", "hidden_plog"]
    static let minutesKey = "white_rabbit"
    static let minutes = ["0", "1", "2", "3", "5", "7", "10"]
    /// How long `auto_open` ON opens every call: a day, as the app's guest-mode switch.
    static let autoOpenFor = "1d"

    /// The command a payload on `topic` (`…/settings/KEY/set` of operator `name`) asks for.
    static func request(operator name: String, key: String, payload: String, topic: String) -> MQTTCommandRequest {
        let printable = MQTTCommandRequest.printable(payload)
        if key == minutesKey {
            // Home Assistant's select sends the option; a number sent by hand may come as "5.0".
            guard let value = Double(payload), let whole = Int(exactly: value), minutes.contains(String(whole)) else {
                return .refused("payload '\(printable)' on \(topic): send minutes, one of \(minutes.joined(separator: ", "))")
            }
            return .command(.flatSettings(FlatSettingsRequest(operatorName: name, changes: ["\(key)=\(whole)"])))
        }
        guard switches.contains(key) else {
            return .refused("no setting '\(MQTTCommandRequest.printable(key))' on \(topic): the settings are \((switches + [minutesKey]).joined(separator: ", "))")
        }
        let value: String
        switch payload {
        case "ON": value = key == "auto_open" ? autoOpenFor : "on"
        case "OFF": value = "off"
        default: return .refused("payload '\(printable)' on \(topic): send ON or OFF")
        }
        return .command(.flatSettings(FlatSettingsRequest(operatorName: name, changes: ["\(key)=\(value)"])))
    }

    /// The retained states of a settings object (`settings --json`'s): ON/OFF for the switches, the
    /// minutes for `white_rabbit`. A key the operator did not send (the owner's, to another member)
    /// has no state.
    static func states(_ settings: JSONValue) -> [(key: String, text: String)] {
        var result: [(key: String, text: String)] = []
        for key in switches {
            switch settings[key] ?? .null {
            case .bool(let on): result.append((key, on ? "ON" : "OFF"))
            // auto_open: a local time while it lasts, else "off".
            case .string(let text): result.append((key, text == "off" ? "OFF" : "ON"))
            default: break
            }
        }
        if case .integer(let n)? = settings[minutesKey] { result.append((minutesKey, String(n))) }
        return result
    }
}

extension HomeAssistantDiscovery {
    /// An operator's settings as entities of its device: a switch per flag, a select for the minutes.
    func settingsConfigs(operator name: String, device: JSONValue,
                         common: (String, JSONValue) -> [(String, JSONValue)]) -> [(String, JSONValue)] {
        let slug = MQTTName.slug(name)
        let base = topics.operatorAccount(name) + "/settings/"
        let titles = ["cms": ("Handset (CMS)", "mdi:phone-classic"), "voip": ("Ring this install", "mdi:cellphone-sound"),
                      "auto_open": ("Open every call for a day", "mdi:account-clock"),
                      "disable_plog": ("No event log", "mdi:eye-off"), "hidden_plog": ("Event log for the owner only", "mdi:eye-lock")]
        var result: [(String, JSONValue)] = []
        for key in OperatorSettingsTopics.switches {
            let object = "operator_\(slug)_\(key)"
            guard let topic = topics.config("switch", object: object), let (title, icon) = titles[key] else { continue }
            result.append((topic, .object([("name", .string(title)), ("command_topic", .string(base + key + "/set")),
                                           ("state_topic", .string(base + key + "/state")), ("payload_on", .string("ON")),
                                           ("payload_off", .string("OFF")), ("icon", .string(icon)),
                                           ("entity_category", .string("config"))] + common(object, device))))
        }
        let key = OperatorSettingsTopics.minutesKey, object = "operator_\(slug)_\(key)"
        if let topic = topics.config("select", object: object) {
            result.append((topic, .object([("name", .string("Open after the handset (minutes)")),
                                           ("command_topic", .string(base + key + "/set")), ("state_topic", .string(base + key + "/state")),
                                           ("options", .array(OperatorSettingsTopics.minutes.map { .string($0) })),
                                           ("icon", .string("mdi:timer-lock-open")), ("entity_category", .string("config"))]
                                          + common(object, device))))
        }
        return result
    }
}
