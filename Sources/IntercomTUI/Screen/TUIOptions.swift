import IntercomBase

/// How the terminal client runs: chosen on the command line.
public struct TUIOptions: Sendable {
    public var kiosk: Bool
    /// `--graphics`: nil = detect.
    public var graphics: String?
    public var bell: Bool
    /// `[notify] terminal` (`--no-notify`: off).
    public var notify: NotifyMode
    /// Shown in the title bar, e.g. "demo".
    public var label: String?
    /// `intercom call`: the screen calls this panel when it starts and closes when that call ends.
    public var call: OutgoingCall?
    /// `intercom watch`: the screen shows only this panel's live picture and a status line.
    public var watch: WatchOptions?
    /// How this screen starts `intercom` for Enter in the journal: the program, then the options
    /// every command it runs there takes (`--config`, `--graphics`), placed after the command's name
    /// (`watch TARGET --at TIME`, `log --play ID`). nil: Enter says it cannot.
    public var childCommand: [String]?

    public init(kiosk: Bool = false, graphics: String? = nil, bell: Bool = true, notify: NotifyMode = .auto, label: String? = nil,
                call: OutgoingCall? = nil, watch: WatchOptions? = nil, childCommand: [String]? = nil) {
        self.kiosk = kiosk
        self.graphics = graphics
        self.bell = bell
        self.notify = notify
        self.label = label
        self.call = call
        self.watch = watch
        self.childCommand = childCommand
    }
}
