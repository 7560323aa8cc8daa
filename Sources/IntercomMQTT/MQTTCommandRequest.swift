import Foundation
import IntercomBase

/// A message on one of the bridge's command topics, as the one command model has it. Only exact
/// payloads act (`PRESS` on a button, `ON`/`OFF` on a switch); anything else is refused with a line
/// for the result topic. Which call a panel's answer/decline/hang-up button means is settled by
/// the bridge, which knows the panel's calls.
enum MQTTCommandRequest: Equatable {
    case command(IntercomCommand)
    /// answer / decline / hangup for the panel's own call.
    case callButton(panel: String, action: String)
    case refused(String)

    /// nil: not a command topic of ours.
    static func parse(_ message: MQTTMessage, topics: MQTTTopics, panels: [String], operatorDoors: OperatorDoorLevels,
                      operators: [String] = [], guestMinutes: Int, now: Date = Date()) -> MQTTCommandRequest? {
        let topic = message.topic
        guard topic.hasPrefix(topics.root + "/") else { return nil }
        let payload = message.text
        for name in operators {
            let base = topics.operatorAccount(name) + "/settings/"
            guard topic.hasPrefix(base), topic.hasSuffix("/set") else { continue }
            let key = String(topic.dropFirst(base.count).dropLast("/set".count))
            return OperatorSettingsTopics.request(operator: name, key: key, payload: payload, topic: topic)
        }
        for door in operatorDoors.ids where topic == operatorDoors.level(door).map({ topics.operatorDoor(level: $0) + "/open" }) {
            return payload == "PRESS" ? .command(.open(panel: door, door: .main, by: .mqtt))
                : .refused("payload '\(printable(payload))' on \(topic): send PRESS")
        }
        for panel in panels {
            let base = topics.panel(panel) + "/"
            guard topic.hasPrefix(base) else { continue }
            let rest = String(topic.dropFirst(base.count))
            switch rest {
            case "door/main/open", "door/alt/open":
                guard payload == "PRESS" else { return .refused("payload '\(printable(payload))' on \(topic): send PRESS") }
                return .command(.open(panel: panel, door: rest.hasPrefix("door/main") ? .main : .alt, by: .mqtt))
            case "answer", "decline", "hangup":
                guard payload == "PRESS" else { return .refused("payload '\(printable(payload))' on \(topic): send PRESS") }
                return .callButton(panel: panel, action: rest)
            case "dnd/set":
                // Do not disturb ON = calls off.
                switch payload {
                case "ON": return .command(.setCalls(panel: panel, on: false))
                case "OFF": return .command(.setCalls(panel: panel, on: true))
                default: return .refused("payload '\(printable(payload))' on \(topic): send ON or OFF")
                }
            case "guest/set":
                switch payload {
                case "ON": return .command(.setGuest(panel: panel, until: now.addingTimeInterval(Double(guestMinutes) * 60)))
                case "OFF": return .command(.setGuest(panel: panel, until: nil))
                default: return .refused("payload '\(printable(payload))' on \(topic): send ON or OFF")
                }
            default:
                return nil
            }
        }
        return nil
    }

    /// A payload quoted in a result line: at most 40 characters, no control characters.
    static func printable(_ text: String) -> String {
        let cleaned = String(text.unicodeScalars.filter { !TerminalSafe.isControl($0) }.map(Character.init))
        return cleaned.count > 40 ? String(cleaned.prefix(40)) + "…" : cleaned
    }
}
