import Foundation

/// The keys Home Assistant's MQTT platforms accept in a discovery config, per entity kind (from
/// `homeassistant/components/mqtt/*.py` PLATFORM_SCHEMA_MODERN and `schemas.py`). HA drops unknown
/// top-level keys silently and refuses a whole config for an unknown key inside `device`, `origin`
/// or an `availability` item, for a missing required key or a value of the wrong kind; this check
/// refuses all of them, so nothing we publish is lost.
enum HomeAssistantSchema {
    static let common: Set<String> = [
        "name", "unique_id", "availability_topic", "payload_available", "payload_not_available", "availability",
        "availability_mode", "availability_template", "device", "origin", "icon", "entity_category", "enabled_by_default",
        "qos", "json_attributes_topic", "json_attributes_template", "object_id", "default_entity_id", "encoding",
        "entity_picture", "platform",
    ]

    struct Platform {
        var required: Set<String>
        var optional: Set<String>
        var deviceClasses: Set<String>?
    }

    static let platforms: [String: Platform] = [
        "button": Platform(required: ["command_topic"], optional: ["payload_press", "command_template", "device_class", "retain"],
                           deviceClasses: ["identify", "restart", "update"]),
        "camera": Platform(required: ["topic"], optional: ["image_encoding"], deviceClasses: nil),
        "event": Platform(required: ["state_topic", "event_types"], optional: ["device_class", "value_template"],
                          deviceClasses: ["doorbell", "button", "motion"]),
        "binary_sensor": Platform(required: ["state_topic"],
                                  optional: ["payload_on", "payload_off", "off_delay", "device_class", "expire_after",
                                             "force_update", "value_template"],
                                  deviceClasses: ["battery", "battery_charging", "carbon_monoxide", "cold", "connectivity",
                                                  "door", "garage_door", "gas", "heat", "light", "lock", "moisture", "motion",
                                                  "moving", "occupancy", "opening", "plug", "power", "presence", "problem",
                                                  "running", "safety", "smoke", "sound", "tamper", "update", "vibration", "window"]),
        "sensor": Platform(required: ["state_topic"],
                           optional: ["device_class", "options", "unit_of_measurement", "state_class", "value_template",
                                      "expire_after", "force_update", "suggested_display_precision", "last_reset_value_template"],
                           deviceClasses: ["timestamp", "enum", "date", "duration", "temperature", "humidity"]),
        "switch": Platform(required: ["command_topic"],
                           optional: ["state_topic", "payload_on", "payload_off", "state_on", "state_off", "optimistic",
                                      "retain", "device_class", "value_template", "command_template"],
                           deviceClasses: ["outlet", "switch"]),
        "select": Platform(required: ["command_topic", "options"],
                           optional: ["state_topic", "optimistic", "retain", "value_template", "command_template"],
                           deviceClasses: nil),
        "lock": Platform(required: ["command_topic"],
                         optional: ["state_topic", "payload_lock", "payload_unlock", "payload_open", "payload_reset",
                                    "state_locked", "state_unlocked", "state_locking", "state_unlocking", "state_jammed",
                                    "state_open", "state_opening", "optimistic", "retain", "value_template", "command_template",
                                    "code_format"], deviceClasses: nil),
    ]

    static let deviceKeys: Set<String> = ["identifiers", "connections", "name", "manufacturer", "model", "model_id",
                                          "sw_version", "hw_version", "serial_number", "suggested_area", "via_device",
                                          "configuration_url"]
    static let originKeys: Set<String> = ["name", "sw_version", "support_url"]

    /// What is wrong with one config (empty: HA takes it whole).
    static func problems(component: String, topic: String, config: [String: Any]) -> [String] {
        var problems: [String] = []
        guard let platform = platforms[component] else { return ["\(topic): unknown component \(component)"] }
        for key in platform.required where config[key] == nil { problems.append("\(topic): required key \(key) missing") }
        for key in config.keys where !common.contains(key) && !platform.required.contains(key) && !platform.optional.contains(key) {
            problems.append("\(topic): key \(key) is not accepted by \(component) (HA would drop it)")
        }
        for (key, value) in config where key.hasSuffix("_topic") || key == "topic" {
            if let text = value as? String, !text.isEmpty, !text.contains("+"), !text.contains("#") { continue }
            problems.append("\(topic): \(key) is not a topic string")
        }
        if let uniqueID = config["unique_id"] as? String {
            if uniqueID.isEmpty { problems.append("\(topic): empty unique_id") }
        } else {
            problems.append("\(topic): no unique_id (the entity could not join a device)")
        }
        if let classes = platform.deviceClasses, let deviceClass = config["device_class"] {
            if let text = deviceClass as? String, classes.contains(text) {} else { problems.append("\(topic): device_class \(deviceClass) not valid for \(component)") }
        }
        if let category = config["entity_category"], !["config", "diagnostic"].contains(category as? String ?? "") {
            problems.append("\(topic): entity_category \(category) is not config or diagnostic")
        }
        if config["availability_topic"] != nil && config["availability"] != nil {
            problems.append("\(topic): availability_topic and availability are exclusive")
        }
        if let device = config["device"] as? [String: Any] {
            for key in device.keys where !deviceKeys.contains(key) { problems.append("\(topic): device key \(key) refused") }
            if device["identifiers"] == nil && device["connections"] == nil { problems.append("\(topic): device without identifiers") }
            if let url = device["configuration_url"] as? String, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
                problems.append("\(topic): configuration_url \(url) is not http(s)")
            }
            if let url = device["configuration_url"] as? String, url.contains("@") { problems.append("\(topic): credentials in configuration_url") }
        } else if config["device"] != nil {
            problems.append("\(topic): device is not an object")
        }
        if let origin = config["origin"] as? [String: Any] {
            for key in origin.keys where !originKeys.contains(key) { problems.append("\(topic): origin key \(key) refused") }
            if !(origin["name"] is String) { problems.append("\(topic): origin without name") }
        }
        switch component {
        case "event":
            if let types = config["event_types"] as? [String], !types.isEmpty {} else { problems.append("\(topic): event_types must be a non-empty list") }
        case "sensor":
            let deviceClass = config["device_class"] as? String
            if deviceClass == "enum" {
                if let options = config["options"] as? [String], !options.isEmpty {} else { problems.append("\(topic): enum sensor without options") }
            } else if config["options"] != nil {
                problems.append("\(topic): options only go with device_class enum")
            }
        case "binary_sensor":
            if let delay = config["off_delay"], !(delay is NSNumber) { problems.append("\(topic): off_delay is not a number") }
        default:
            break
        }
        return problems
    }
}
