/// What SIGHUP does with a key's new value in a running daemon.
public enum ConfigReloadKind: Sendable, Equatable {
    /// Copied into the running config: the next call or event uses it, calls in progress keep theirs.
    case live
    /// Left as it was; the daemon logs that a restart is needed.
    case restart
    /// The daemon does not use it: each command reads it from the file when it runs.
    case perCommand

    /// The reference's "reloadable" column.
    var reference: String {
        switch self {
        case .live: "yes"
        case .restart: "no, restart"
        case .perCommand: "n/a (read per command)"
        }
    }
}
