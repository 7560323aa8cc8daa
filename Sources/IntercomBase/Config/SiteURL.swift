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
        var hosts = authority.split(separator: ",").map { Self.host(of: $0) }.filter { !$0.isEmpty }
        for key in ["host", "hostaddr"] {
            if let listed = query[key] { hosts += listed.split(separator: ",").map(String.init) }
        }
        self.hosts = hosts
        sslMode = query["sslmode"]
        hasPassword = password || query["password"] != nil
    }

    /// Whether any host is another machine: neither a unix socket (empty or a folder) nor loopback.
    /// A host name other than `localhost` counts as another machine (it is not resolved here).
    public var reachesAnotherMachine: Bool {
        hosts.contains { !($0.hasPrefix("/") || $0.hasPrefix("@") || ListenReach.isLoopback($0)) }
    }

    /// `[::1]:5432` → `::1`, `db:5432` → `db`.
    private static func host(of text: Substring) -> String {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            return String(text[text.index(after: text.startIndex)..<close])
        }
        let host = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(host).removingPercentEncoding ?? String(host)
    }
}
