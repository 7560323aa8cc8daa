import Foundation

/// One local SIP socket, written `udp:127.0.0.1:5060` or `tcp:[::1]:5070`.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var transport: SIPTransport
    /// Without brackets, also for IPv6.
    public var host: String
    /// 0 asks the OS for a free port (tests and the demo use this).
    public var port: Int

    public init(transport: SIPTransport, host: String, port: Int) {
        self.transport = transport
        self.host = host
        self.port = port
    }

    /// Parses `TRANSPORT:HOST:PORT`; the error text is a reason, the caller adds the place.
    public init(parsing text: String) throws(ConfigValueError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let colon = trimmed.firstIndex(of: ":") else {
            throw ConfigValueError("'\(trimmed)' has no transport",
                                   fix: "write it as udp:HOST:PORT, tcp:HOST:PORT or tls:HOST:PORT")
        }
        guard let transport = SIPTransport(rawValue: trimmed[..<colon].lowercased()) else {
            throw ConfigValueError("'\(trimmed)' has an unknown transport '\(trimmed[..<colon])'",
                                   fix: "use udp:, tcp: or tls:")
        }
        let rest = trimmed[trimmed.index(after: colon)...]
        let host: Substring
        let portText: Substring
        if rest.first == "[" {
            guard let close = rest.firstIndex(of: "]") else {
                throw ConfigValueError("'\(trimmed)' has no closing ']' around the IPv6 address",
                                       fix: "write it as \(transport.rawValue):[::1]:5060")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            // Brackets are only for IPv6; `[[]` or `[a:b]` would pass here and fail at bind time.
            guard host.isEmpty || IPLiteral.bytes(String(host))?.count == 16 else {
                throw ConfigValueError("'\(trimmed)': '\(host)' in brackets is not an IPv6 address",
                                       fix: "write it as \(transport.rawValue):[::1]:5060")
            }
            let after = rest[rest.index(after: close)...]
            guard after.first == ":" else {
                throw ConfigValueError("'\(trimmed)' has no port",
                                       fix: "add ':PORT' (0 picks a free port)")
            }
            portText = after.dropFirst()
        } else {
            guard let lastColon = rest.lastIndex(of: ":") else {
                throw ConfigValueError("'\(trimmed)' has no port",
                                       fix: "add ':PORT' (0 picks a free port)")
            }
            host = rest[..<lastColon]
            portText = rest[rest.index(after: lastColon)...]
            guard !host.contains(":") else {
                throw ConfigValueError("'\(trimmed)': an IPv6 address needs brackets",
                                       fix: "write it as \(transport.rawValue):[\(host)]:\(portText)")
            }
            guard !host.contains(where: { $0 == "[" || $0 == "]" || $0.isWhitespace }) else {
                throw ConfigValueError("'\(trimmed)' has an invalid host '\(host)'",
                                       fix: "use an IP address or a host name, IPv6 in brackets")
            }
        }
        guard !host.isEmpty else {
            throw ConfigValueError("'\(trimmed)' has an empty host",
                                   fix: "use 0.0.0.0 for all interfaces or 127.0.0.1 for this machine")
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = Int(portText),
              (0...65535).contains(port) else {
            throw ConfigValueError("'\(trimmed)' has an invalid port '\(portText)'",
                                   fix: "use a port from 0 to 65535 (0 picks a free port)")
        }
        self.init(transport: transport, host: String(host), port: port)
    }

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(transport.rawValue):\(shownHost):\(port)"
    }
}
