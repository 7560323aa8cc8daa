#if canImport(Glibc)
import Glibc
#endif

/// The XDG base directories, resolved once by one set of rules for every part (config, the
/// phone's files, the journal, the control socket). A variable counts only when it holds an
/// absolute path — the spec says to ignore a relative one, and honouring it would send the phone
/// and the journal to different trees. Without the variable, the default under HOME; without HOME
/// either, intercom's private folder in /tmp (`fallback`), which its users check is ours alone.
public struct XDGDirectories: Sendable, Equatable {
    public var environment: [String: String]
    public var uid: UInt32

    public init(environment: [String: String], uid: UInt32 = getuid()) {
        self.environment = environment
        self.uid = uid
    }

    /// `/tmp/intercom-UID`: shared /tmp, so used only after `PrivateDirectory.ensure` (ours, 0700,
    /// not a symlink).
    public static func fallback(uid: UInt32) -> String { "/tmp/intercom-\(uid)" }

    /// `$XDG_CONFIG_HOME`, else `~/.config`; nil without either.
    public var configHome: String? { base("XDG_CONFIG_HOME", underHome: ".config") }

    /// `$XDG_DATA_HOME`, else `~/.local/share`; nil without either.
    public var dataHome: String? { base("XDG_DATA_HOME", underHome: ".local/share") }

    /// intercom's data (the journal, liblinphone's files): `DATA_HOME/intercom`, else the fallback.
    public var dataDirectory: String { dataHome.map { $0 + "/intercom" } ?? Self.fallback(uid: uid) }

    /// `$XDG_STATE_HOME`, else `~/.local/state`; nil without either.
    public var stateHome: String? { base("XDG_STATE_HOME", underHome: ".local/state") }

    /// State kept across runs that is not data a user would back up (operator tokens, the TUI's
    /// log): `STATE_HOME/intercom`, else the fallback.
    public var stateDirectory: String { stateHome.map { $0 + "/intercom" } ?? Self.fallback(uid: uid) }

    /// Per-session files (the control socket): `$XDG_RUNTIME_DIR/intercom`, else the fallback.
    public var runtimeDirectory: String {
        absolute("XDG_RUNTIME_DIR").map { $0 + "/intercom" } ?? Self.fallback(uid: uid)
    }

    /// Every folder the daemon writes in: the journal and liblinphone's files, the state (switches,
    /// tokens), the control socket's. The systemd unit must let it write each (`ReadWritePaths=`,
    /// `RuntimeDirectory=`); SystemdUnitTests reads this list, so a new one cannot be forgotten there.
    public var daemonWrites: [String] { [dataDirectory, stateDirectory, runtimeDirectory] }

    /// HOME when set and not empty.
    public var home: String? {
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home
    }

    private func absolute(_ name: String) -> String? {
        guard let value = environment[name], value.hasPrefix("/") else { return nil }
        return value
    }

    private func base(_ name: String, underHome: String) -> String? {
        absolute(name) ?? home.map { "\($0)/\(underHome)" }
    }
}
