/// Where a registrar account's REGISTERs go: the proxy if one is set, else the identity's domain.
public struct RegistrarAddress: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var transport: SIPTransport

    /// Reads `sip[s]:[user@]host[:port][;transport=T]`; nil when there is no host.
    public init?(account: SIPAccount) {
        guard let uri = SIPURI(parsing: account.proxy ?? account.identity) else { return nil }
        var transport: SIPTransport = uri.scheme == .sips ? .tls : .udp
        if case let value?? = uri.parameter("transport") {
            transport = SIPTransport(rawValue: value.lowercased()) ?? transport
        }
        self.host = uri.host
        self.transport = transport
        self.port = uri.port.map(Int.init) ?? (transport == .tls ? 5061 : 5060)
    }
}
