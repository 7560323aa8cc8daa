import IntercomBase
import IntercomOperator

/// `intercom doors [--json]`: every door this client can open, the panels' and the operators',
/// each with the id `intercom open` takes.
public enum DoorsCommand {
    public static let spec = CommandSpec(
        name: "doors",
        options: [.flag("--json", "one JSON array")],
        details: """
            Ids: a panel's main door is the panel's name, its second door NAME:alt and its third output
            (a light or a third lock) NAME:light, each listed; a DS panel also takes NAME:N for any relay
            number N. An operator's door is OPERATOR:DOMOPHONE:DOOR from the operator's own numbering,
            so it stays the same across runs and logins.
            """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        await CatalogEntry.list(invocation, noun: "doors", panel: panelOutputs, operatorItems: { op, client throws(OperatorError) in
            operatorDoors(op.name, try await client.addresses())
        })
    }

    /// Every output of a panel that `open` takes by name: what `BewardPanel.open` drives on both families.
    static func panelOutputs(_ panel: PanelConfig) -> [CatalogEntry] {
        [(Door.main, "main door"), (Door.alt, "second door"), (Door.light, "third output (light)")].map { door, what in
            CatalogEntry(id: door == .main ? panel.name : "\(panel.name):\(door)", name: "\(panel.name) \(what)",
                         fields: [("source", .string("panel")), ("panel", .string(panel.name)), ("door", .string("\(door)"))],
                         whereText: "panel \(panel.name)")
        }
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
