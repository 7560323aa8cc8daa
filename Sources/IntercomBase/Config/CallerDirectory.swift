/// Tells who is calling from what the transport saw, never from what the caller wrote.
///
/// A direct call is a panel's only when its packets come from one of the panel's addresses
/// (`source`, else the host of `url`); `match` then picks which of the panels at that address
/// it is. A call that arrives from the `[sip] account`'s registrar is trusted as far as the
/// registrar is, and `match` alone names the panel. From, To and Contact never make a caller
/// a panel: anyone can write them.
public struct CallerDirectory: Sendable {
    private struct Entry: Sendable {
        let panel: PanelConfig
        let addresses: [[UInt8]]
        let expected: [String]
    }

    private let entries: [Entry]
    private let registrars: [[UInt8]]
    /// `[sip] unknown_callers = reject`.
    public let rejectStrangers: Bool
    /// Panels whose calls can never be recognised (an unresolvable url host and no `source`).
    public let unreachable: [String]
    /// `[operator]` sections exist: a registrar call from a `1XXXXX` user is an operator's panel.
    public let operatorCalls: Bool

    /// `resolve` turns a host name into addresses (the engine's DNS lookup); IP literals are
    /// taken as they are. `registrarHosts` are the hosts of the account's registrar or proxy.
    public init(panels: [PanelConfig], registrarHosts: [String], rejectStrangers: Bool, operatorCalls: Bool = false,
                resolve: (String) -> [String]) {
        self.operatorCalls = operatorCalls
        func addresses(_ hosts: [String]) -> [String] {
            hosts.flatMap { IPLiteral.isValid($0) ? [$0] : resolve($0) }
        }
        var unreachable: [String] = []
        entries = panels.map { panel in
            let expected = addresses(panel.sourceAddresses)
            if expected.isEmpty { unreachable.append(panel.name) }
            return Entry(panel: panel, addresses: expected.compactMap(IPLiteral.canonicalBytes), expected: expected)
        }
        registrars = addresses(registrarHosts).compactMap(IPLiteral.canonicalBytes)
        self.rejectStrangers = rejectStrangers
        self.unreachable = unreachable
    }

    /// `from` is the From header (or its URI), `contactHost` the host of the Contact, `source`
    /// the transport address the INVITE came from (nil when unknown: then nobody is trusted).
    public func identify(from: String, contactHost: String?, source: String?) -> CallerVerdict {
        let sourceBytes = source.flatMap(IPLiteral.canonicalBytes)
        if let sourceBytes {
            if let direct = entries.first(where: { $0.addresses.contains(sourceBytes) && $0.panel.matches(uri: from, ip: source) }) {
                return .panel(direct.panel.name, route: .direct)
            }
            if registrars.contains(sourceBytes),
               let routed = entries.first(where: { !$0.panel.match.isEmpty && $0.panel.matches(uri: from, ip: nil) }) {
                return .panel(routed.panel.name, route: .registrar)
            }
            if operatorCalls, registrars.contains(sourceBytes), let domophone = Self.operatorDomophone(from) {
                return .operatorPanel(domophoneId: domophone)
            }
        }
        // Not a panel by its packets; does it claim to be one?
        let claimedHosts = [contactHost, SIPURI(parsing: from)?.host].compactMap { $0 }.compactMap(IPLiteral.canonicalBytes)
        for entry in entries {
            if let sourceBytes, entry.addresses.contains(sourceBytes) { continue }
            let namedByMatch = !entry.panel.match.isEmpty && entry.panel.match.contains { $0.matches(uri: from, ip: nil) }
            let namedByAddress = claimedHosts.contains { entry.addresses.contains($0) }
            if namedByMatch || namedByAddress {
                return .impostor(panel: entry.panel.name, expected: entry.expected)
            }
        }
        return .stranger
    }

    /// The panels whose addresses `source` is one of, in file order: who sent a datagram that has
    /// no From to name a panel (the panels' syslog). Empty for a stranger or an unparsable source.
    public func panels(at source: String?) -> [String] {
        guard let bytes = source.flatMap(IPLiteral.canonicalBytes) else { return [] }
        return entries.filter { $0.addresses.contains(bytes) }.map(\.panel.name)
    }

    /// Whether `source` is one of the panels' addresses or the registrar's (or proxy's): the SIP
    /// peers trusted with any request. Anyone else only rings or goes on with a dialog we have with it.
    public func isKnownSource(_ source: String?) -> Bool {
        guard let bytes = source.flatMap(IPLiteral.canonicalBytes) else { return false }
        return registrars.contains(bytes) || entries.contains { $0.addresses.contains(bytes) }
    }

    /// Whether a new call with this verdict is refused before it rings: impostors always,
    /// strangers under `unknown_callers = reject`.
    public func refuses(_ verdict: CallerVerdict) -> Bool {
        switch verdict {
        case .panel, .operatorPanel: false
        case .impostor: true
        case .stranger: rejectStrangers
        }
    }

    /// The domophone id of a SmartYard panel's SIP URI: its user is `1` + 5 digits (`sip:100001@…`
    /// → `1`); nil for any other user.
    public static func operatorDomophone(_ uri: String) -> String? {
        guard let user = SIPURI(parsing: uri)?.user, user.count == 6, user.hasPrefix("1"),
              user.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(user.dropFirst()) else { return nil }
        return String(number)
    }
}
