import Foundation
import IntercomBase
import IntercomOperator

/// `intercom settings [OPERATOR] [KEY=VALUE ...] [--json] [--flat ID]`: the operator's intercom
/// settings of the flat, shown, or changed and shown as the operator now has them.
public enum SettingsCommand {
    public static let spec = CommandSpec(
        name: "settings",
        arguments: "[OPERATOR] [KEY=VALUE ...]",
        maxPositionals: 16,
        options: [
            .flag("--json", "one JSON object"),
            .value("--flat", "ID", "the flat (its id, or its number) when the login has several"),
        ],
        details: """
            keys: cms on|off (ring the flat's handset), voip on|off (ring this install's own device
            for the flat: the operator keeps it per device, so the subscriber's phone keeps its
            own), auto_open TIME|DURATION|off (open every call until then: 'YYYY-MM-DD HH:MM',
            RFC 3339, 30m, 2h, 1d, 20:00 or tomorrow 08:00), white_rabbit 0|1|2|3|5|7|10 (minutes of auto-open after the
            door was opened from the handset), door_code=new (the operator makes a new entry code;
            any member of the flat may). Shown only: frs and lprs (face and plate recognition; the
            operator's server never reads them from a request), door_code 'off' when the flat has no
            code (the server's 00000), and the flat's RFID keys, which the operator lists to the
            flat's owner only.
            """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        var positionals = invocation.arguments.positionals
        let name = positionals.first.flatMap { $0.contains("=") ? nil : $0 }
        if name != nil { positionals.removeFirst() }
        var changes: [FlatSettingChange] = []
        for text in positionals {
            switch FlatSettingChange.parse(text) {
            case .success(let change): changes.append(change)
            case .failure(let failure):
                return CommandError(UsageError(message: failure.description, command: "settings").description,
                                    code: ExitCode.usage).report()
            }
        }
        let op: OperatorConfig
        switch OperatorSelection.pick(invocation, name: name) {
        case .failure(let failure): return failure.report()
        case .success(let found): op = found
        }
        do {
            let client = try OperatorSelection.client(op, environment: invocation.environment)
            let flat: OperatorFlat
            switch OperatorSelection.flat(try await client.flats(), choice: invocation.arguments.value("--flat"),
                                          operatorName: op.name, command: "settings") {
            case .failure(let failure): return failure.report()
            case .success(let found): flat = found
            }
            let fields = changes.filter { !$0.resetsDoorCode }
            if !fields.isEmpty { try await client.setIntercom(flatId: flat.flatId, changes: fields) }
            if changes.contains(where: \.resetsDoorCode) { _ = try await client.resetCode(flatId: flat.flatId) }
            let settings = try await client.intercom(flatId: flat.flatId)
            print(settings, op: op, flat: flat, json: invocation.arguments.has("--json"))
            return ExitCode.ok
        } catch {
            return error.commandError.report()
        }
    }

    static func print(_ settings: FlatSettings, op: OperatorConfig, flat: OperatorFlat, json: Bool) {
        let fields = settings.fields()
        if json {
            // null when the operator did not list them (it lists them to the owner only).
            let keys: JSONValue = flat.keys.map { list in
                .array(list.map { .object([("rfid", .string($0.rfId)), ("comment", .optional($0.comment)),
                                           ("last_seen", .optional($0.lastSeen))]) })
            } ?? .null
            Console.out(JSONValue.object([("operator", .string(op.name)), ("flat", .string(flat.flatId)),
                                          ("address", .string(flat.address))] + fields + [("keys", keys)]).encoded)
            return
        }
        Console.out(TerminalSafe.escape("\(op.name), flat \(flat.flatId): \(flat.address)"))
        let rows = fields.map { key, value -> [String] in
            let text: String
            switch value {
            case .bool(let on) where FlatSettingChange.readOnlyKeys.contains(key): text = (on ? "on" : "off") + " (read only)"
            case .bool(let on): text = on ? "on" : "off"
            case .integer(let n): text = key == "white_rabbit" ? (n == 0 ? "off" : "\(n) min") : String(n)
            case .string(let s): text = s
            default: text = "-"
            }
            return ["  " + key, text]
        }
        Console.out(TextTable.render(rows + keyRows(flat.keys)))
    }

    /// One row per RFID key (its number, the owner's note, when a panel last saw it); one row saying
    /// why there are none to show.
    static func keyRows(_ keys: [OperatorKey]?) -> [[String]] {
        guard let keys else { return [["  keys", "(listed to the flat's owner only)"]] }
        guard !keys.isEmpty else { return [["  keys", "none"]] }
        return keys.map { key in
            let seen = key.lastSeen.map { "last seen \($0)" } ?? "never seen"
            let note = key.comment.flatMap { $0.isEmpty ? nil : $0 }.map { "\($0), " } ?? ""
            return ["  key", "\(key.rfId) (\(note)\(seen))"]
        }
    }
}
