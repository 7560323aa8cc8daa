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

    public init(kiosk: Bool = false, graphics: String? = nil, bell: Bool = true, notify: NotifyMode = .auto, label: String? = nil,
                call: OutgoingCall? = nil, watch: WatchOptions? = nil) {
        self.kiosk = kiosk
        self.graphics = graphics
        self.bell = bell
        self.notify = notify
        self.label = label
        self.call = call
        self.watch = watch
    }
}
