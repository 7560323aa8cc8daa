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
            any member of the flat may), disable_plog on|off (no event log for the flat) and
            hidden_plog on|off (the log shown to the owner only): the owner's alone, so refused for
            another member (the operator would ignore them). Shown only: frs and lprs (face and plate recognition; the
            operator's server never reads them from a request), door_code 'off' when the flat has no
            code (the server's 00000), and the flat's RFID keys with when a panel last saw each (local
            time), which the operator lists to the flat's owner only. With the daemon running,
            'intercom ctl settings OPERATOR KEY=VALUE' does the same through it.
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
            if let refusal = FlatSettingChange.ownerRefusal(changes, flat: flat) {
                return CommandError(refusal.description, code: ExitCode.authRefused).report()
            }
            let settings = try await client.settings(of: flat, applying: changes)
            print(settings, op: op, flat: flat, json: invocation.arguments.has("--json"))
            return ExitCode.ok
        } catch {
            return error.commandError.report()
        }
    }

    static func print(_ settings: FlatSettings, op: OperatorConfig, flat: OperatorFlat, json: Bool) {
        let object = settings.json(operatorName: op.name, flat: flat)
        Console.out(json ? object.encoded : text(object))
    }

    /// The settings object (`settings --json`, the daemon's `settings` reply) for a person: the flat,
    /// one row per setting, one per RFID key. Its texts came from the operator: the header is made
    /// terminal-safe here, the cells by TextTable.
    static func text(_ object: JSONValue) -> String {
        func field(_ key: String) -> String { TerminalSafe.escape(object[key]?.stringValue ?? "?") }
        let settingKeys = FlatSettings().fields().map(\.0)
        let rows = settingKeys.map { key -> [String] in
            let text: String
            switch object[key] ?? .null {
            case .bool(let on) where FlatSettingChange.readOnlyKeys.contains(key): text = (on ? "on" : "off") + " (read only)"
            case .bool(let on): text = on ? "on" : "off"
            case .integer(let n): text = key == "white_rabbit" ? (n == 0 ? "off" : "\(n) min") : String(n)
            case .string(let s): text = s
            default: text = FlatSettingChange.ownerOnlyKeys.contains(key) ? "(shown to the flat's owner only)" : "-"
            }
            return ["  " + key, text]
        }
        return "\(field("operator")), flat \(field("flat")): \(field("address"))\n" + TextTable.render(rows + keyRows(object["keys"]))
    }

    /// One row per RFID key (its number, the owner's note, when a panel last saw it, in local
    /// time); one row saying why there are none to show.
    static func keyRows(_ keys: JSONValue?) -> [[String]] {
        guard case .array(let list)? = keys else { return [["  keys", "(listed to the flat's owner only)"]] }
        guard !list.isEmpty else { return [["  keys", "none"]] }
        return list.map { key in
            let lastSeen = key["last_seen"]?.stringValue
            let seen = lastSeen.map { text in "last seen " + (RFC3339.date(text).map(CtlSummary.localMinute) ?? text) }
                ?? "never seen"
            let note = key["comment"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }.map { "\($0), " } ?? ""
            return ["  key", "\(key["rfid"]?.stringValue ?? "?") (\(note)\(seen))"]
        }
    }
}
