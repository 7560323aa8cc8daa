/// What made a door open: kept with every opening in the event and the journal, and what tells
/// an automatic opening (rate-limited per panel, only in a confirmed call) from a person's.
public enum DoorTrigger: String, Sendable, Equatable, CaseIterable {
    /// A key in the terminal client.
    case key
    /// `intercom ctl open` or a control-socket client.
    case ctl
    /// `intercom open`.
    case command
    /// "Wait for guests": the panel's call was answered and the door opened by itself.
    case guestMode = "guest_mode"
    /// A hook program (its `intercom ctl open` says so).
    case hook
    /// A command topic of the MQTT bridge (a Home Assistant button, an automation).
    case mqtt
    /// A button of the desktop notification (`[notify] desktop`): anyone on the user's session bus
    /// can press it, as anyone of the user's can run `intercom ctl open`.
    case notification

    /// Nobody at a keyboard asked for it.
    public var isAutomatic: Bool { self == .guestMode || self == .hook }
}
