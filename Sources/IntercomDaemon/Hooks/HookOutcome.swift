/// How one hook run ended.
public enum HookOutcome: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)
    /// Still running at the timeout: sent SIGTERM, then SIGKILL after a grace period.
    case timedOut
    case spawnFailed(String)
    /// Too many hooks already waiting; this one was not run.
    case dropped

    public var succeeded: Bool { self == .exited(0) }

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signalled(let signal): "killed by signal \(signal)"
        case .timedOut: "timed out and was killed"
        case .spawnFailed(let why): "could not be started: \(why)"
        case .dropped: "was dropped: too many hooks waiting"
        }
    }
}
