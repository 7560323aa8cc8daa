import Foundation

/// The whole typed configuration.
public struct IntercomConfig: Sendable, Equatable {
    public var sip: SIPSettings
    public var audio: AudioSettings
    /// In file order, so "the first panel" is predictable for commands without a PANEL.
    public var panels: [PanelConfig]
    /// `[operator NAME]` sections in file order.
    public var operators: [OperatorConfig]
    public var daemon: DaemonSettings
    public var journal: JournalSettings
    /// Event type (e.g. `call_incoming`) -> absolute program path.
    public var hooks: [String: String]
    /// `[hooks] snapshot_wait_ms`: how long `on_call_incoming` waits for the call's first picture.
    public var hookSnapshotWaitMs = HookSettings.defaultSnapshotWaitMs
    /// `[mqtt]`; nil = no MQTT.
    public var mqtt: MQTTSettings?
    /// `[notify]`: desktop and terminal notifications of a ring.
    public var notify: NotifySettings = .defaults
    /// `[syslog]`: the panels' syslog listener; nil without the section (`syslogListen`).
    public var syslog: SyslogSettings?
    /// `[site]`: this desk is one of a site's, on a shared PostgreSQL store; nil = a lone machine.
    public var site: SiteConfig?
    /// `[directory]`: flats and extensions a call can be transferred to, name -> SIP URI.
    public var directory: [String: String] = [:]
    /// The file it came from; nil for built-in defaults.
    public var path: String?

    public init(sip: SIPSettings = .defaults, audio: AudioSettings = .defaults,
                panels: [PanelConfig] = [], operators: [OperatorConfig] = [], daemon: DaemonSettings,
                journal: JournalSettings = .defaults, hooks: [String: String] = [:],
                mqtt: MQTTSettings? = nil, path: String? = nil) {
        self.sip = sip
        self.audio = audio
        self.panels = panels
        self.operators = operators
        self.daemon = daemon
        self.journal = journal
        self.hooks = hooks
        self.mqtt = mqtt
        self.path = path
    }

    /// The `[hooks]` section as one value (the config table's place for it).
    public var hookSettings: HookSettings {
        get { HookSettings(programs: hooks, snapshotWaitMs: hookSnapshotWaitMs) }
        set { (hooks, hookSnapshotWaitMs) = (newValue.programs, newValue.snapshotWaitMs) }
    }

    /// No panels, listening on udp:127.0.0.1:5060; the socket path depends on
    /// the environment, hence a function.
    public static func defaults(environment: [String: String]) -> IntercomConfig {
        IntercomConfig(daemon: .defaults(environment: environment))
    }

    /// Defaults for the current process environment.
    public static let defaults = IntercomConfig.defaults(environment: ProcessInfo.processInfo.environment)

    /// Operator by name, case-insensitively.
    public func `operator`(named name: String) -> OperatorConfig? {
        operators.first { $0.name.lowercased() == name.lowercased() }
    }

    /// A `[directory]` entry's URI by name, case-insensitively.
    public func directoryURI(named name: String) -> String? {
        directory.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// Panel by name, case-insensitively (names are unique that way).
    public func panel(named name: String) -> PanelConfig? {
        panels.first { $0.name.lowercased() == name.lowercased() }
    }
}
