/// What SIGHUP makes of a reloaded config, decided by the config table: the running config with
/// every live key's new value, and one line per section (or named panel) whose other changes wait
/// for a restart, for the daemon to log.
public struct ConfigReloadPlan: Sendable, Equatable {
    /// The config to run with from now on: restart keys keep their running values.
    public let config: IntercomConfig
    public let notApplied: [String]

    public init(running: IntercomConfig, reloaded: IntercomConfig) {
        var merged = running
        var notApplied: [String] = []
        for section in ConfigSchema.sections {
            section.reload(running: &merged, reloaded: reloaded, notApplied: &notApplied)
        }
        self.config = merged
        self.notApplied = notApplied
    }

    /// The keys SIGHUP applies, as `[section] key` (for the daemon's log line and the docs).
    public static var liveKeys: [String] {
        ConfigSchema.sections.flatMap { section in
            section.rows.filter { $0.reload == .live }.map { "[\(section.kind)] \($0.name)" }
        }
    }
}
