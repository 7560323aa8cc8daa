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

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        await CatalogEntry.list(invocation, noun: "doors", panel: { panel in
            CatalogEntry(id: panel.name, name: "\(panel.name) main door",
                         fields: [("source", .string("panel")), ("panel", .string(panel.name)), ("door", .string("main"))],
                         whereText: "panel \(panel.name)")
        }, operatorItems: { op, client throws(OperatorError) in
            operatorDoors(op.name, try await client.addresses())
        })
    }

    /// The operator's doors in its order, each once (a door shared by two addresses shows under the first).
    static func operatorDoors(_ name: String, _ addresses: [OperatorAddress]) -> [CatalogEntry] {
        OperatorAddress.uniqueDoors(addresses, operator: name).map { id, address, door in
            var fields: [(String, JSONValue)] = [
                ("source", .string("operator")), ("operator", .string(name)), ("address", .string(address.address)),
                ("domophone_id", .string(door.domophoneId)), ("door_id", .integer(door.doorId)),
                ("icon", .optional(door.icon)),
            ]
            if let blocked = door.blocked { fields.append(("blocked", .string(blocked))) }
            return CatalogEntry(id: id, name: door.name, fields: fields,
                         whereText: "\(name): \(address.address)\(door.blocked.map { " (blocked: \($0))" } ?? "")")
        }
    }
}
