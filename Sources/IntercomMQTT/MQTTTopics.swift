import Foundation
import IntercomBase

/// Every topic the bridge uses, from `[mqtt]` and this machine's name: the intercom's own under
/// `<topic_prefix>/<host>/`, Home Assistant's under `<discovery_prefix>/<component>/intercom_<host>/`.
public struct MQTTTopics: Sendable, Equatable {
    /// `<topic_prefix>/<host>`.
    public let root: String
    public let discoveryPrefix: String?
    /// `intercom_<host>`: the discovery node id and the start of every unique id.
    public let node: String
    public let host: String

    public init(settings: MQTTSettings, host: String) {
        self.host = MQTTName.slug(host)
        root = settings.topicPrefix + "/" + self.host
        discoveryPrefix = settings.discoveryPrefix
        node = "intercom_" + self.host
    }

    /// Availability: `online` (retained) while connected, `offline` from the will or a clean stop.
    public var status: String { root + "/status" }
    /// Every event as the same JSON object `--events json` prints (not retained).
    public var events: String { root + "/events" }
    /// One JSON object per command received: what it was, `ok`, and `error` when refused.
    public var result: String { root + "/result" }
    /// Home Assistant's birth and last will.
    public var homeAssistantStatus: String? { discoveryPrefix.map { $0 + "/status" } }

    /// A panel's topics: its name as `MQTTName` spells it (`Вход` → `vkhod`).
    public func panel(_ name: String) -> String { root + "/" + MQTTName.slug(name) }
    /// An operator door's topics, at its level from `OperatorDoorLevels`.
    func operatorDoor(level: String) -> String { root + "/operator/" + level }
    /// An operator's own topics (`/event`: its log's new entries; `/unread`: its unread messages).
    /// They end in `/event` and `/unread`, a door's in `/open`, so an operator whose name is
    /// spelled like a door's level still has topics of its own.
    public func operatorAccount(_ name: String) -> String { root + "/operator/" + MQTTName.slug(name) }

    /// `<discovery_prefix>/<component>/intercom_<host>/<object>/config`.
    public func config(_ component: String, object: String) -> String? {
        discoveryPrefix.map { "\($0)/\(component)/\(node)/\(object)/config" }
    }

    /// Every config of ours, for finding the ones the config no longer names.
    public var ownConfigs: String? { discoveryPrefix.map { "\($0)/+/\(node)/+/config" } }

    /// This machine's name (`gethostname`), or `localhost`.
    public static func machineName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.split(separator: ".").first.map(String.init) ?? "localhost"
    }
}
