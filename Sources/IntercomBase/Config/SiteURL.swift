import Foundation

/// What the program must know of a libpq connection URI before connecting: its hosts (a host may be
/// a unix socket's folder), its `sslmode` and whether it carries a password. libpq reads the URI
/// itself when it connects; this only decides the TLS rule and refuses a password in the config.
public struct SiteURL: Sendable, Equatable {
    /// Each host as written (`db.example`, `127.0.0.1`, `::1`, `/run/postgresql`); empty = libpq's unix socket.
    public let hosts: [String]
    /// `?sslmode=…`, nil when not given.
    public let sslMode: String?
    /// A password in the user part (`user:secret@`) or as `?password=`.
    public let hasPassword: Bool
    /// What libpq connects to, in order: the query's `host`/`port` lists where given (they replace the
    /// authority's, as in libpq), else the authority's `host:port`s (`port` "": libpq's default).
    public let endpoints: [Endpoint]
    /// `?hostaddr=` is given: the URI names the addresses itself.
    public let namesAddresses: Bool

    public struct Endpoint: Sendable, Equatable {
        public let host: String
        public let port: String
    }

    /// Nil unless the text starts with `postgresql://` or `postgres://` and has no blank.
    public init?(parsing text: String) {
        let lower = text.lowercased()
        guard let scheme = ["postgresql://", "postgres://"].first(where: { lower.hasPrefix($0) }),
              !text.contains(where: { $0.isWhitespace || $0.isNewline }) else { return nil }
        let rest = text.dropFirst(scheme.count)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        var password = false
        if let at = authority.lastIndex(of: "@") {
            password = authority[..<at].contains(":")
            authority = authority[authority.index(after: at)...]
        }
        var query: [String: String] = [:]
        if let mark = rest.firstIndex(of: "?") {
            let text = rest[rest.index(after: mark)...].prefix { $0 != "#" }
            for pair in text.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let value = parts.count > 1 ? String(parts[1]) : ""
                query[String(parts[0]).lowercased()] = value.removingPercentEncoding ?? value
            }
        }
        let written = authority.split(separator: ",", omittingEmptySubsequences: false).map(Self.endpoint(of:))
        var hosts = written.map(\.host).filter { !$0.isEmpty }
        for key in ["host", "hostaddr"] {
            if let listed = query[key] { hosts += listed.split(separator: ",").map(String.init) }
        }
        self.hosts = hosts
        endpoints = Self.endpoints(written: authority.isEmpty ? [] : written, hosts: query["host"], ports: query["port"])
        namesAddresses = query["hostaddr"] != nil
        sslMode = query["sslmode"]
        hasPassword = password || query["password"] != nil
    }

    /// Whether any host is another machine: neither a unix socket (empty or a folder) nor loopback.
    /// A host name other than `localhost` counts as another machine (it is not resolved here).
    public var reachesAnotherMachine: Bool {
        hosts.contains { !($0.hasPrefix("/") || $0.hasPrefix("@") || ListenReach.isLoopback($0)) }
    }

    /// `[::1]:5432` → `::1` and `5432`, `db:5432` → `db` and `5432`, `db` → `db` and "".
    private static func endpoint(of text: Substring) -> Endpoint {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let port = text[text.index(after: close)...].drop { $0 == ":" }
            return Endpoint(host: String(text[text.index(after: text.startIndex)..<close]), port: String(port))
        }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let host = String(parts.first ?? "")
        return Endpoint(host: host.removingPercentEncoding ?? host, port: parts.count > 1 ? String(parts[1]) : "")
    }

    /// The query's lists in place of the authority's; one port for several hosts is every host's port.
    /// Lists that do not pair (libpq refuses them itself) give none.
    private static func endpoints(written: [Endpoint], hosts: String?, ports: String?) -> [Endpoint] {
        let hostList = hosts.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            ?? written.map(\.host)
        let portList = ports.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            ?? written.map(\.port)
        guard portList.count <= 1 || portList.count == hostList.count else { return [] }
        return hostList.enumerated().map { index, host in
            Endpoint(host: host, port: portList.count == hostList.count ? portList[index] : portList.first ?? "")
        }
    }
}
