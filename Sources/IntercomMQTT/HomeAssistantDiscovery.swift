import Foundation
import IntercomBase
import IntercomCore
import IntercomOperator

/// The Home Assistant discovery configs (single-component discovery, one topic per entity): a device
/// per panel with its doors, picture, ring events, `ringing`, call state, last call, do-not-disturb
/// and guest mode switches and answer/decline/hang-up buttons; a device per operator panel with a
/// button per door. Each door is a `button`: a Beward strike is a momentary pulse, which a button
/// models exactly, while a `lock` would need a state we cannot see (DECISIONS.md).
public struct HomeAssistantDiscovery: Sendable {
    public let topics: MQTTTopics

    public init(topics: MQTTTopics) { self.topics = topics }

    /// The event types of a panel's event entity.
    public static let eventTypes = ["ring", "ding", "motion", "lock_relay", "door_opened"]

    /// The event types of an operator's log entity: its entries' `event` names.
    public static let operatorEventTypes = PlogEvent.allCases.map(\.name)

    /// Every config to publish: (config topic, payload).
    public func configs(panels: [PanelConfig], operatorDoors: [DoorListing],
                        operators: [String] = []) -> [(topic: String, payload: JSONValue)] {
        guard topics.discoveryPrefix != nil else { return [] }
        var result: [(String, JSONValue)] = []
        for panel in panels { result += configs(panel) }
        let levels = OperatorDoorLevels(operatorDoors.map(\.id))
        for door in operatorDoors {
            if let level = levels.level(door.id), let config = config(door, level: level) { result.append(config) }
        }
        for name in operators { result += configs(operator: name) }
        return result
    }

    /// An operator account's device: its log's new entries (an event entity), its unread messages (a
    /// sensor) and the flat's settings (`settingsConfigs`).
    private func configs(operator name: String) -> [(String, JSONValue)] {
        let slug = MQTTName.slug(name)
        let base = topics.operatorAccount(name)
        let device: JSONValue = .object([
            ("identifiers", .array([.string("intercom-\(topics.host)-operator-\(slug)")])),
            ("name", .string("\(name) operator")), ("manufacturer", .string("SmartYard operator \(name)")),
        ])
        var result: [(String, JSONValue)] = []
        if let topic = topics.config("event", object: "operator_\(slug)_log") {
            result.append((topic, .object([("name", .string("Event log")), ("state_topic", .string(base + "/event")),
                                           ("event_types", .array(Self.operatorEventTypes.map { .string($0) })),
                                           ("icon", .string("mdi:door-sliding"))]
                                          + common(object: "operator_\(slug)_log", device: device))))
        }
        if let topic = topics.config("sensor", object: "operator_\(slug)_unread") {
            result.append((topic, .object([("name", .string("Unread messages")), ("state_topic", .string(base + "/unread")),
                                           ("state_class", .string("measurement")), ("icon", .string("mdi:email"))]
                                          + common(object: "operator_\(slug)_unread", device: device))))
        }
        return result + settingsConfigs(operator: name, device: device) { common(object: $0, device: $1) }
    }

    private func configs(_ panel: PanelConfig) -> [(String, JSONValue)] {
        let slug = MQTTName.slug(panel.name)
        let base = topics.panel(panel.name)
        var device: [(String, JSONValue)] = [
            ("identifiers", .array([.string("intercom-\(topics.host)-\(slug)")])),
            ("name", .string("\(panel.name) panel")), ("manufacturer", .string("Beward")),
            ("model", .string(panel.model == .auto ? "intercom panel" : panel.model.rawValue.uppercased())),
        ]
        if panel.url.lowercased().hasPrefix("http") { device.append(("configuration_url", .string(panel.url))) }
        func entity(_ component: String, _ thing: String, _ fields: [(String, JSONValue)]) -> (String, JSONValue)? {
            let object = "\(slug)_\(thing)"
            guard let topic = topics.config(component, object: object) else { return nil }
            return (topic, .object(fields + common(object: object, device: .object(device))))
        }
        let press: [(String, JSONValue)] = [("payload_press", .string("PRESS"))]
        let entries: [(String, JSONValue)?] = [
            entity("button", "door_main", [("name", .string("Open main door")), ("command_topic", .string(base + "/door/main/open")),
                                           ("icon", .string("mdi:door-open"))] + press),
            entity("button", "door_alt", [("name", .string("Open second door")), ("command_topic", .string(base + "/door/alt/open")),
                                          ("icon", .string("mdi:door-open"))] + press),
            entity("camera", "picture", [("name", .string("Last picture")), ("topic", .string(base + "/picture"))]),
            entity("event", "ring", [("name", .string("Doorbell")), ("state_topic", .string(base + "/event")),
                                     ("device_class", .string("doorbell")),
                                     ("event_types", .array(Self.eventTypes.map { .string($0) }))]),
            entity("binary_sensor", "ringing", [("name", .string("Ringing")), ("state_topic", .string(base + "/ringing")),
                                                ("payload_on", .string("ON")), ("payload_off", .string("OFF")),
                                                ("device_class", .string("sound")), ("off_delay", .integer(120))]),
            entity("sensor", "call_state", [("name", .string("Call state")), ("state_topic", .string(base + "/call_state")),
                                            ("device_class", .string("enum")),
                                            ("options", .array(["idle", "ringing", "in_call"].map { .string($0) }))]),
            entity("sensor", "last_call", [("name", .string("Last call")), ("state_topic", .string(base + "/last_call")),
                                           ("device_class", .string("timestamp"))]),
            entity("switch", "dnd", [("name", .string("Do not disturb")), ("command_topic", .string(base + "/dnd/set")),
                                     ("state_topic", .string(base + "/dnd/state")), ("payload_on", .string("ON")),
                                     ("payload_off", .string("OFF")), ("icon", .string("mdi:bell-off")),
                                     ("entity_category", .string("config"))]),
            entity("switch", "guest", [("name", .string("Guest mode")), ("command_topic", .string(base + "/guest/set")),
                                       ("state_topic", .string(base + "/guest/state")), ("payload_on", .string("ON")),
                                       ("payload_off", .string("OFF")), ("icon", .string("mdi:account-clock")),
                                       ("json_attributes_topic", .string(base + "/guest/attributes")),
                                       ("entity_category", .string("config"))]),
            entity("button", "answer", [("name", .string("Answer")), ("command_topic", .string(base + "/answer")),
                                        ("icon", .string("mdi:phone"))] + press),
            entity("button", "decline", [("name", .string("Decline")), ("command_topic", .string(base + "/decline")),
                                         ("icon", .string("mdi:phone-hangup"))] + press),
            entity("button", "hangup", [("name", .string("Hang up")), ("command_topic", .string(base + "/hangup")),
                                        ("icon", .string("mdi:phone-off"))] + press),
        ]
        return entries.compactMap { $0 }
    }

    private func config(_ door: DoorListing, level: String) -> (String, JSONValue)? {
        let object = "op_" + level
        guard let topic = topics.config("button", object: object) else { return nil }
        let panelKey = MQTTName.slug("\(door.owner)-\(door.domophoneId ?? door.id)")
        let device: JSONValue = .object([
            ("identifiers", .array([.string("intercom-\(topics.host)-op-\(panelKey)")])),
            ("name", .string(door.address ?? "\(door.owner) \(door.domophoneId ?? "panel")")),
            ("manufacturer", .string("SmartYard operator \(door.owner)")),
        ])
        let fields: [(String, JSONValue)] = [
            ("name", .string(door.name.isEmpty ? "Open door" : "Open \(door.name)")),
            ("command_topic", .string(topics.operatorDoor(level: level) + "/open")), ("payload_press", .string("PRESS")),
            ("icon", .string("mdi:door-open")),
        ]
        return (topic, .object(fields + common(object: object, device: device)))
    }

    private func common(object: String, device: JSONValue) -> [(String, JSONValue)] {
        [("unique_id", .string("\(topics.node)_\(object)")),
         ("availability_topic", .string(topics.status)), ("device", device),
         ("origin", .object([("name", .string("intercom")), ("sw_version", .string(IntercomVersion.string))]))]
    }
}
