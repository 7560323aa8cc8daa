/// A door a panel opened by itself and told us of by syslog (`[syslog]`, docs/BEWARD.md): a key
/// (with its id), the entry code, the exit button, an analogue handset, DTMF digits. Published as
/// `door_opened` with `method` `panel`; it asks nothing of the panel and opens nothing.
public struct PanelOpening: Sendable, Equatable {
    public var panel: String
    /// `main`, `alt`, or a door of the panel as `doors` names it.
    public var door: String
    public var by: DoorTrigger
    /// The RFID key's id, hex (`by` `key`).
    public var key: String?
    /// The apartment the line names, when it names one.
    public var flat: String?

    /// The `method` of these openings: the panel did it, we only heard of it.
    public static let method = "panel"

    public init(panel: String, door: String, by: DoorTrigger, key: String? = nil, flat: String? = nil) {
        self.panel = panel
        self.door = door
        self.by = by
        self.key = key
        self.flat = flat
    }
}
