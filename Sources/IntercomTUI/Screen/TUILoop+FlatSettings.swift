import Foundation
import IntercomBase

/// The operator flat's settings on a screen: `F` shows them on the message line, `W` moves
/// `white_rabbit` (minutes of opening after the handset opened) to the server's next value. Both
/// go through the settings command (`IntercomCommand.flatSettings`), as `ctl settings` and MQTT's
/// switches do, on a screen of its own engine as on an attached one.
extension TUILoop {
    /// The server's minutes, in the order `W` steps through them.
    static let whiteRabbitSteps = [0, 1, 2, 3, 5, 7, 10]

    func showFlatSettings(nextMinutes: Bool) {
        // The first operator the door list names: a login's doors are what shows it is logged in.
        guard let name = model.doors.first(where: { $0.source == .operator })?.owner else {
            return model.say("no operator's doors are listed: log in first (intercom login NAME)", warn: true)
        }
        let intercom = context.intercom, inbox = context.inbox
        context.commands.start {
            do {
                var settings = try await intercom.execute(.flatSettings(FlatSettingsRequest(operatorName: name)))
                if nextMinutes {
                    let now = settings["white_rabbit"].flatMap { if case .integer(let n) = $0 { n } else { nil } } ?? 0
                    let next = Self.whiteRabbitSteps.first { $0 > now } ?? 0
                    settings = try await intercom.execute(.flatSettings(FlatSettingsRequest(operatorName: name, changes: ["white_rabbit=\(next)"])))
                }
                inbox.post(.message(Self.flatSettingsLine(settings), warn: false))
            } catch {
                inbox.post(.message("\(error)", warn: true))
            }
        }
    }

    /// One line of the settings object (`settings --json`'s): `yard, flat 7: cms on, voip on, …`.
    static func flatSettingsLine(_ settings: JSONValue) -> String {
        func text(_ key: String) -> String? {
            switch settings[key] ?? .null {
            case .bool(let on): on ? "on" : "off"
            case .integer(let n): key == "white_rabbit" ? (n == 0 ? "off" : "\(n) min") : String(n)
            case .string(let s): s
            default: nil
            }
        }
        let keys = ["cms", "voip", "auto_open", "white_rabbit", "door_code", "disable_plog", "hidden_plog"]
        let fields = keys.compactMap { key in text(key).map { "\(key) \($0)" } }
        return "\(settings["operator"]?.stringValue ?? "?"), flat \(settings["flat"]?.stringValue ?? "?"): "
            + fields.joined(separator: ", ")
    }
}
