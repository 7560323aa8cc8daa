import Synchronization

/// Which callers `[sip] unknown_callers = reject` turns away, shared between the engine (which
/// owns the panels and updates the rules on SIGHUP) and the phone thread (which refuses new
/// INVITEs from anyone else with a stateless 403 before liblinphone builds a call for them).
///
/// Why before liblinphone: a call object costs its thread about 9 ms (media streams, ports, a
/// row in its call history, fsync), so a scan at 50 INVITEs a second saturated it, took every
/// call slot (the panel's own call got "486 Busy here") and grew the history file without end.
public final class UnknownCallerGate: Sendable {
    private let rules: Mutex<[[CallerMatch]]>

    /// One entry per panel: its match rules.
    public init(panels: [PanelConfig]) {
        rules = Mutex(panels.map(\.match))
    }

    public func update(panels: [PanelConfig]) {
        let fresh = panels.map(\.match)
        rules.withLock { $0 = fresh }
    }

    /// Whether a caller with this From (a header value or URI) and Contact host matches a panel,
    /// by the same rules the engine applies to calls liblinphone reports.
    public func admits(from: String, contactHost: String?) -> Bool {
        rules.withLock { panels in
            panels.contains { matches in matches.contains { $0.matches(uri: from, ip: contactHost) } }
        }
    }
}
