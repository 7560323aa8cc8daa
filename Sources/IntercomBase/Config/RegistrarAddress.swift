/// Where a registrar account's REGISTERs go: the proxy if one is set, else the identity's domain.
public struct RegistrarAddress: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var transport: SIPTransport

    /// Reads `sip[s]:[user@]host[:port][;transport=T]`; nil when there is no host.
    public init?(account: SIPAccount) {
        let text = account.proxy ?? account.identity
        let lower = text.lowercased()
        let secure = lower.hasPrefix("sips:")
        var rest = Substring(text.drop { $0 != ":" }.dropFirst())
        if let at = rest.prefix(while: { !";?>".contains($0) }).lastIndex(of: "@") {
            rest = rest[rest.index(after: at)...]
        }
        var host: Substring
        var portText: Substring = ""
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            if rest.hasPrefix(":") { portText = rest.dropFirst().prefix { $0.isNumber } }
        } else {
            host = rest.prefix { !":;?>".contains($0) }
            rest = rest[host.endIndex...]
            if rest.hasPrefix(":") { portText = rest.dropFirst().prefix { $0.isNumber } }
        }
        guard !host.isEmpty else { return nil }
        var transport: SIPTransport = secure ? .tls : .udp
        if let range = lower.range(of: ";transport=") {
            let value = lower[range.upperBound...].prefix { $0.isLetter }
            transport = SIPTransport(rawValue: String(value)) ?? transport
        }
        self.host = String(host)
        self.transport = transport
        self.port = Int(portText) ?? (transport == .tls ? 5061 : 5060)
    }
}
