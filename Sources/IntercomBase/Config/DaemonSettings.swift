/// The `[daemon]` section.
public struct DaemonSettings: Sendable, Equatable {
    /// Already expanded: no `$VAR` or `~` left.
    public var socketPath: String

    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// `$XDG_RUNTIME_DIR/intercom/control.sock`, or `/tmp/intercom-UID/control.sock`
    /// when the session has no runtime dir (e.g. started from cron or ssh without logind).
    public static func defaults(environment: [String: String]) -> DaemonSettings {
        DaemonSettings(socketPath: PathExpander(environment: environment).runtimeDirectory + "/control.sock")
    }
}
