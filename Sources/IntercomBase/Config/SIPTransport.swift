/// The transports a listen address or proxy can use.
public enum SIPTransport: String, Sendable, Equatable, CaseIterable {
    case udp, tcp, tls
}
