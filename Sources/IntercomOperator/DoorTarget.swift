import IntercomBase

/// What a door id names — the one reading of the grammar `intercom open`, `ctl open`, the socket's
/// `open`, MQTT and the screens share: a panel's name (`entrance`), `PANEL:DOOR` (`entrance:alt`),
/// or an operator's door `OPERATOR:DOMOPHONE:DOOR` (`home:1:0`, as `intercom doors` lists it).
/// A panel's own name wins over either reading (a panel may be called `a:1:0`).
public enum DoorTarget: Sendable, Equatable {
    /// A panel; `door` when the id named one (`entrance:alt`), nil for the bare name.
    case panel(PanelConfig, door: Door?)
    /// An operator's door; `id` is the canonical spelling (the operator's configured name).
    case operatorDoor(OperatorConfig, domophoneId: String, doorId: Int, id: String)

    /// What `id` names in `config`, or nil when it is none of the three.
    public static func resolve(_ id: String, in config: IntercomConfig) -> DoorTarget? {
        if let panel = config.panel(named: id) { return .panel(panel, door: nil) }
        if let parsed = OperatorItemID.parseDoor(id), let op = config.operator(named: parsed.operatorName) {
            let canonical = OperatorItemID.door(operator: op.name, domophoneId: parsed.domophoneId, doorId: parsed.doorId)
            return .operatorDoor(op, domophoneId: parsed.domophoneId, doorId: parsed.doorId, id: canonical)
        }
        if let colon = id.lastIndex(of: ":"), let panel = config.panel(named: String(id[..<colon])),
           let door = Door(String(id[id.index(after: colon)...])) {
            return .panel(panel, door: door)
        }
        return nil
    }
}
