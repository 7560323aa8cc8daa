/// What made a door open: kept with every opening in the event and the journal, and what tells
/// an automatic opening (rate-limited per panel, only in a confirmed call) from a person's.
/// The last four (and `key` with `method` `panel`) come from the panel's syslog only: a command
/// or the control socket can never claim them.
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
    /// What the panel opened by itself and told us by syslog (`[syslog]`, docs/BEWARD.md): never a
    /// request of ours. `key` above is also a panel's RFID key there (`method` `panel`, with `key`).
    /// The entry code typed on the panel.
    case code
    /// The exit button (`door` says which).
    case button
    /// An analogue (CMS) handset's open button.
    case handset
    /// The panel's own word that DTMF digits opened it (confirms ours, or someone else's).
    case dtmf

    /// Nobody at a keyboard asked for it.
    public var isAutomatic: Bool { self == .guestMode || self == .hook }
}
