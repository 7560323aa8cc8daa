/// Which config file is used and why; "why" decides whether a missing file is an error.
public struct ConfigLocation: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable {
        /// `--config PATH`
        case flag
        /// `INTERCOM_CONFIG`
        case environment
        /// `$XDG_CONFIG_HOME/intercom/config.ini`
        case xdgConfigHome
        /// `$HOME/.config/intercom/config.ini`
        case home
        /// Neither HOME nor XDG_CONFIG_HOME is set: no file, defaults only.
        case none
    }

    public var path: String?
    public var source: Source

    public init(path: String?, source: Source) {
        self.path = path
        self.source = source
    }

    /// The user named the file, so it must exist.
    public var isExplicit: Bool { source == .flag || source == .environment }
}
