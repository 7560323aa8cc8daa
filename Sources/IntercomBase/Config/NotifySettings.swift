/// `[notify] desktop` and `terminal`: when a ring is posted beyond the screen itself.
public enum NotifyMode: String, Sendable, Equatable, CaseIterable {
    /// Desktop: when a session bus and a notification server are there. Terminal: when the
    /// terminal is known to show its notification escape, the screen has lost focus and the
    /// client does not post the desktop notification itself.
    case auto
    /// Desktop: always tried (a missing bus or server is a warning). Terminal: even with focus.
    case on
    case off
}

/// The `[notify]` section.
public struct NotifySettings: Sendable, Equatable {
    /// freedesktop notifications over the session bus (daemon, or a screen with its own engine).
    public var desktop: NotifyMode
    /// The terminal's own notification escape (the terminal client).
    public var terminal: NotifyMode

    public init(desktop: NotifyMode = .auto, terminal: NotifyMode = .auto) {
        self.desktop = desktop
        self.terminal = terminal
    }

    public static let defaults = NotifySettings()
}
