/// A parsed config with the warnings found on the way.
public struct LoadedConfig: Sendable, Equatable {
    public var config: IntercomConfig
    public var warnings: [ConfigWarning]
    /// Where it was looked for; `config.path` is nil when no file existed.
    public var location: ConfigLocation?

    public init(config: IntercomConfig, warnings: [ConfigWarning] = [], location: ConfigLocation? = nil) {
        self.config = config
        self.warnings = warnings
        self.location = location
    }
}
