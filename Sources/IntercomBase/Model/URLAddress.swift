/// The parts of a `scheme://[user[:password]@]host[:port][/path][?query][#fragment]` URL the program
/// reads: the one reader of URL hosts and ports (panels, the operator API, MQTT brokers, `setup`, the
/// simulators' options). A stream URL FFmpeg opens is read by `StreamAddress` (IntercomVideo) instead,
/// on purpose: it must read hosts exactly as FFmpeg does, not as we do.
public struct URLAddress: Sendable, Equatable {
    /// The scheme, lowercased (`http`, `mqtts`, ...); empty when the text starts with `://`.
    public let scheme: String
    /// Whether a `user[:password]@` precedes the host: secrets belong in the config's own keys.
    public let hasCredentials: Bool
    /// The host as written, brackets taken off an IPv6 literal; never empty.
    public let host: String
    /// What follows the host's `:`, nil when there is none.
    public let portText: String?
    /// From the first `/` after the host up to `?` or `#`; empty when there is none.
    public let path: String

    /// The port when one is written and it is 1-65535.
    public var port: Int? {
        guard let portText, !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCIIDigit),
              let port = Int(portText), (1...65535).contains(port) else { return nil }
        return port
    }

    /// No port written, or a good one.
    public var portIsValid: Bool { portText == nil || port != nil }

    /// Nil when the text has no `://`, no host, a blank anywhere, or an IPv6 literal not closed by `]`
    /// (or followed by anything but `:PORT`).
    public init?(parsing text: String) {
        guard !text.contains(where: \.isWhitespace), let schemeEnd = text.range(of: "://") else { return nil }
        var authority = text[schemeEnd.upperBound...]
        var path = ""
        if let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            if authority[end] == "/" { path = String(authority[end...].prefix { $0 != "?" && $0 != "#" }) }
            authority = authority[..<end]
        }
        let at = authority.lastIndex(of: "@")
        if let at { authority = authority[authority.index(after: at)...] }
        guard let hostPort = AuthorityText.split(authority, portAfter: .last), !hostPort.host.isEmpty else { return nil }
        self.scheme = text[..<schemeEnd.lowerBound].lowercased()
        self.hasCredentials = at != nil
        self.host = String(hostPort.host)
        self.portText = hostPort.portText.map(String.init)
        self.path = path
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
