import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `[site]` section as the config says it (IntercomCore's `SiteSettings` is what the engine makes
/// of it): this desk is one of several that share a PostgreSQL store (docs/SITE.md). No section, no
/// site: a lone machine keeps its SQLite journal and state file.
public struct SiteConfig: Sendable, Equatable {
    /// A libpq connection URI (`postgresql://USER@HOST[:PORT]/DB[?…]`), never with a password in it.
    public var url: String
    /// A file (mode 0600, owned by this user) holding the role's password; nil = libpq's own (PGPASSFILE, ~/.pgpass).
    public var passwordFile: String?
    /// This desk's name; nil = the machine's name (`deskName`).
    public var desk: String?
    /// Who is on duty here; nil = nobody named.
    public var `operator`: String?
    /// `auto`: TLS with `sslmode=verify-full` to any host that is not loopback or a unix socket; `off`: as the URL says.
    public var tls: SiteTLS
    /// A ring no desk on duty answers within this long is transferred to `escalateTo`; nil = never.
    public var escalateAfter: Duration?
    /// Where an escalated ring goes (a SIP address).
    public var escalateTo: String?
    /// How long one request to the store (its connect included) may take before it fails and the
    /// store counts as unreachable: a frozen server, or a dead link that sends no reset, never blocks a desk.
    public var timeout: Duration

    public init(url: String, passwordFile: String? = nil, desk: String? = nil, operator: String? = nil,
                tls: SiteTLS = .auto, escalateAfter: Duration? = nil, escalateTo: String? = nil,
                timeout: Duration = SiteConfig.defaultTimeout) {
        self.url = url
        self.passwordFile = passwordFile
        self.desk = desk
        self.operator = `operator`
        self.tls = tls
        self.escalateAfter = escalateAfter
        self.escalateTo = escalateTo
        self.timeout = timeout
    }

    /// `[site] timeout`'s default: long enough for a busy server across a WAN, short enough that a
    /// desk says the site is unreachable while the operator is still looking.
    public static let defaultTimeout = Duration.seconds(5)

    /// `desk`, else this machine's short name (`gethostname`), else `desk`.
    public var deskName: String {
        if let desk { return desk }
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "desk" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.split(separator: ".").first.map(String.init) ?? "desk"
    }

    /// The `sslmode` the connection must carry: `verify-full` when `tls = auto` and a host is another
    /// machine; nil when the URL's own choice stands (every host local, or `tls = off`).
    public var requiredSSLMode: String? {
        guard tls == .auto, let target = SiteURL(parsing: url), target.reachesAnotherMachine else { return nil }
        return "verify-full"
    }
}

/// `[site] tls`.
public enum SiteTLS: String, Sendable, Equatable, CaseIterable {
    case auto
    case off
}
