#if canImport(Glibc)
import Glibc
#endif
import IntercomBase

/// Where a URL leads: scheme, host and port, read the way FFmpeg's `av_url_split` reads them (the
/// split its http and tcp protocols connect by), so that what is vetted is what would be opened:
/// no second parser whose idea of the host could differ from FFmpeg's.
struct StreamAddress: Equatable, Sendable {
    /// Lower case; empty for a plain path (FFmpeg opens it as a local file).
    var scheme: String
    /// Lower case (DNS names are); without brackets for IPv6.
    var host: String
    /// The scheme's default when the URL names none; -1 for a scheme without one.
    var port: Int

    init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    init(_ url: String) {
        // No ':' at all: a plain file name.
        guard let colon = url.firstIndex(of: ":") else {
            self.init(scheme: "", host: "", port: -1)
            return
        }
        let scheme = url[..<colon].lowercased()
        var rest = url[url.index(after: colon)...]
        for _ in 0..<2 where rest.first == "/" { rest = rest.dropFirst() }
        let authority = rest.prefix { !"/?#".contains($0) }
        // user:password@ ends at the last '@' of the authority.
        let hostPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        var host = Substring(hostPort)
        var port = -1
        if hostPort.first == "[", let bracket = hostPort.firstIndex(of: "]") {
            host = hostPort[hostPort.index(after: hostPort.startIndex)..<bracket]
            let after = hostPort[hostPort.index(after: bracket)...]
            if after.first == ":" { port = Self.atoi(after.dropFirst()) }
        } else if let portColon = hostPort.firstIndex(of: ":") {
            host = hostPort[..<portColon]
            port = Self.atoi(hostPort[hostPort.index(after: portColon)...])
        }
        self.init(scheme: scheme, host: host.lowercased(), port: port < 0 ? Self.defaultPort(scheme) : port)
    }

    /// FFmpeg reads the port with `atoi`: leading digits, anything after them ignored.
    private static func atoi(_ text: Substring) -> Int { Int(Glibc.atoi(String(text))) }

    /// The ports FFmpeg's protocols use when the URL names none.
    private static func defaultPort(_ scheme: String) -> Int {
        switch scheme {
        case "http": 80
        case "https": 443
        case "rtsp": 554
        case "rtsps": 322
        default: -1
        }
    }

    /// `http://HOST:PORT`, for messages (the host escaped: it may come from a hostile playlist).
    var origin: String { "\(scheme)://\(hostAndPort)" }

    /// `HOST:PORT` (IPv6 in brackets), escaped and capped: what a refusal may show of a URL.
    var hostAndPort: String {
        let shown = TerminalSafe.escape(String(host.prefix(80)))
        let named = host.contains(":") ? "[\(shown)]" : shown
        return port < 0 ? named : "\(named):\(port)"
    }
}

/// Which URLs the demuxer of one stream may open: those on the stream's own scheme, host and port
/// (and on the address its URL redirected to), bare or wrapped in FFmpeg's `crypto` protocol
/// (an HLS playlist's AES-128 segments). Everything else is refused: another host or port, a local
/// file or path, `concat:`, `subfile:`, `data:`, `pipe:` and any other scheme. Pure: the FFmpeg side
/// is `StreamOpenGuard`.
struct StreamURLGate: Sendable {
    /// The stream's own address.
    let origin: StreamAddress
    /// Where the stream's URL itself redirected to (an operator's server handing the stream to
    /// another node): its playlist's segments live there.
    private(set) var redirected: StreamAddress?

    init(url: String) { origin = StreamAddress(url) }

    /// Nil when `url` may be opened; otherwise what it points at, for a message (never its path or query).
    func refusal(of url: String) -> String? {
        var inner = Substring(url)
        // crypto+http://… and crypto:http://… decrypt what the inner URL gives.
        for wrapper in ["crypto+", "crypto:"] where url.lowercased().hasPrefix(wrapper) {
            inner = inner.dropFirst(wrapper.count)
        }
        let address = StreamAddress(String(inner))
        if address == origin || address == redirected { return nil }
        // FFmpeg names the protocol by the scheme characters before the ':' (`subfile,,start,…:`).
        let scheme = String(address.scheme.prefix(while: Self.isSchemeCharacter).prefix(16))
        if scheme.isEmpty { return "a local file" }
        guard Self.networkSchemes.contains(address.scheme), !address.host.isEmpty else { return "a \(scheme): URL" }
        return address.scheme == origin.scheme ? address.hostAndPort : address.origin
    }

    /// Lets the demuxer open URLs on the address the stream's URL redirected to (nil or the
    /// stream's own address: none).
    mutating func admitRedirect(to location: String) {
        let address = StreamAddress(location)
        redirected = address == origin || address.host.isEmpty ? nil : address
    }

    /// `http://HOST:PORT`, or both addresses after a redirect.
    var allowedOrigins: String {
        [origin, redirected].compactMap { $0?.origin }.joined(separator: " or ")
    }

    /// Schemes a refusal names by address; any other is named by its scheme alone.
    private static let networkSchemes: Set<String> = ["http", "https", "rtsp", "rtsps"]

    private static func isSchemeCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "+" || c == "-" || c == ".")
    }
}
