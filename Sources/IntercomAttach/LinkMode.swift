import IntercomBase

/// Where a screen's engine runs.
public enum LinkMode: Sendable, Equatable {
    /// The screen's own engine: calls are answered only here.
    case ownEngine
    /// Attached to the user's daemon (its pid).
    case attached(pid: Int32)
    /// Attached, and the daemon went away: the screen attaches again by itself (`ReattachSchedule`)
    /// and says so until it has.
    case away(DaemonAway)

    /// The title's words.
    public var title: String {
        switch self {
        case .ownEngine: "own engine: calls are answered only here"
        case .attached(let pid): "attached to the daemon, pid \(pid)"
        case .away(let away): away.title
        }
    }

    /// The title's words where the whole line does not fit (an 80-column terminal with a queue).
    public var shortTitle: String {
        switch self {
        case .ownEngine: "own engine"
        case .attached(let pid): "attached, pid \(pid)"
        case .away(let away): "daemon away \(away.seconds) s"
        }
    }

    /// While the daemon is away, the line the screen keeps showing (it does not fade); nil otherwise.
    public var awayLine: String? {
        if case .away(let away) = self { away.line } else { nil }
    }
}

/// A screen's daemon that went away, as the screen says it.
public struct DaemonAway: Sendable, Equatable {
    /// Whole seconds since the daemon went away.
    public var seconds: Int
    /// Away long enough (`ReattachSchedule.hintAfter`) that the screen says how to start it.
    public var long: Bool
    /// A daemon answers on the socket but serves another config than `config`.
    public var other: DaemonIdentity?
    /// The config this screen shows (canonical; nil: the built-in defaults).
    public var config: String?

    public init(seconds: Int, long: Bool, other: DaemonIdentity? = nil, config: String? = nil) {
        self.seconds = seconds
        self.long = long
        self.other = other
        self.config = config
    }

    /// The title's words: the old pid and "waiting for calls" would say the screen still hears calls.
    public var title: String { "daemon away \(seconds) s — \(state)" }

    /// What the title says in place of the screen's state.
    public var state: String { "calls do not ring here until it is back" }

    /// The line under the screen while away.
    public var line: String {
        if let other {
            return "the daemon on the socket (\(other.serving)) is not this screen's (\(config ?? "the built-in defaults")); "
                + "stop it, or give this config its own [daemon] socket; retrying"
        }
        if long {
            return "the daemon has been away \(seconds) s: start it ('systemctl --user start intercom' or 'intercom daemon'); "
                + "this screen attaches again by itself"
        }
        return "the daemon went away \(seconds) s ago; attaching again by itself once it is back"
    }
}
