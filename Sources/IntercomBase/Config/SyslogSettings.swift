/// `[syslog]`: the one UDP socket the panels' syslog comes to (docs/BEWARD.md). A panel's lines
/// are heard when its section says `syslog = on`, or when `[syslog]` is there and it does not say
/// `syslog = off`; a panel is known by the datagram's source address, as SIP knows it.
public struct SyslogSettings: Sendable, Equatable {
    public var listen: ListenAddress

    /// `udp:0.0.0.0:5514`: a port above 1024 (no privilege), away from syslog's own 514.
    public static let defaultListen = ListenAddress(transport: .udp, host: "0.0.0.0", port: 5514)

    public init(listen: ListenAddress = SyslogSettings.defaultListen) {
        self.listen = listen
    }

    public static let defaults = SyslogSettings()
}

extension IntercomConfig {
    /// The panels whose syslog is heard, in file order.
    public var syslogPanels: [PanelConfig] {
        panels.filter { $0.syslog ?? (syslog != nil) }
    }

    /// Where the syslog listener binds; nil when no panel's syslog is heard.
    public var syslogListen: ListenAddress? {
        syslogPanels.isEmpty ? nil : (syslog ?? .defaults).listen
    }
}
