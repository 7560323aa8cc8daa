import IntercomBase
import IntercomOperator

/// `intercom doors [--json]`: every door this client can open, the panels' and the operators',
/// each with the id `intercom open` takes.
public enum DoorsCommand {
    public static let spec = CommandSpec(
        name: "doors",
        options: [.flag("--json", "one JSON array")],
        details: """
            Ids: a panel's main door is the panel's name (NAME:alt for its second door); an operator's
            door is OPERATOR:DOMOPHONE:DOOR from the operator's own numbering, so it stays the same
            across runs and logins.
            """,
        run: run)

    struct Entry: Sendable {
        var id: String
        var name: String
        var fields: [(String, JSONValue)]
        var whereText: String
    }

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let config: IntercomConfig
        switch OperatorSelection.config(invocation) {
        case .failure(let failure): return failure.report()
        case .success(let loaded): config = loaded
        }
        var entries = config.panels.map { panel in
            Entry(id: panel.name, name: "\(panel.name) main door",
                  fields: [("source", .string("panel")), ("panel", .string(panel.name)), ("door", .string("main"))],
                  whereText: "panel \(panel.name)")
        }
        let sweep = await OperatorSweep<Entry>.run(config, environment: invocation.environment) { op, client throws(OperatorError) in
            operatorDoors(op.name, try await client.addresses())
        }
        entries += sweep.items
        if entries.isEmpty && !sweep.skipped.isEmpty { return sweep.finish(foundAnything: false) }
        if invocation.arguments.has("--json") {
            Console.out(JSONValue.array(entries.map(json)).encoded)
        } else if entries.isEmpty && sweep.code == ExitCode.ok {
            Console.error("intercom: no doors: add a [panel NAME] or [operator NAME] section and run 'intercom login'")
        } else {
            Console.out(TextTable.render([["ID", "NAME", "WHERE"]] + entries.map { [$0.id, $0.name, $0.whereText] }))
        }
        return sweep.finish(foundAnything: true)
    }

    /// The operator's doors in its order, each once (a door shared by two addresses shows under the first).
    static func operatorDoors(_ name: String, _ addresses: [OperatorAddress]) -> [Entry] {
        OperatorAddress.uniqueDoors(addresses, operator: name).map { id, address, door in
            var fields: [(String, JSONValue)] = [
                ("source", .string("operator")), ("operator", .string(name)), ("address", .string(address.address)),
                ("domophone_id", .string(door.domophoneId)), ("door_id", .integer(door.doorId)),
                ("icon", .optional(door.icon)),
            ]
            if let blocked = door.blocked { fields.append(("blocked", .string(blocked))) }
            return Entry(id: id, name: door.name, fields: fields,
                         whereText: "\(name): \(address.address)\(door.blocked.map { " (blocked: \($0))" } ?? "")")
        }
    }

    static func json(_ entry: Entry) -> JSONValue {
        .object([("id", .string(entry.id)), ("name", .string(entry.name))] + entry.fields)
    }
}
