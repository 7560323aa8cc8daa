import IntercomBase

/// What a connection is made with: the `[site]` URI, the password read from `password_file` (if
/// any) and the `sslmode` the TLS rule adds. Checked before anything is sent: a password file
/// others can read, or a URI that would reach another machine without verified TLS, is refused.
public struct PostgresTarget: Sendable {
    public let url: String
    let password: String?
    let sslMode: String?
    /// How long one request (its connect included) may take before it fails as a lost connection.
    public let timeout: Duration
    /// How the URI's host names are looked up before libpq connects (tests give their own).
    let resolver: HostResolver

    /// For the tests' harness and `site init --url`: a URI as is, no TLS rule beyond libpq's.
    public init(url: String, timeout: Duration = SiteConfig.defaultTimeout) {
        self.init(url: url, timeout: timeout, resolver: .system)
    }

    init(url: String, timeout: Duration, resolver: HostResolver) {
        self.url = url
        password = nil
        sslMode = nil
        self.timeout = timeout
        self.resolver = resolver
    }

    /// From the config: the password file checked and read, the TLS rule applied.
    public init(settings: SiteConfig) throws(PostgresError) {
        guard let target = SiteURL(parsing: settings.url) else {
            throw PostgresError(.settings, "[site] url '\(settings.url)' is not a postgresql:// URI")
        }
        guard !target.hasPassword else {
            throw PostgresError(.settings, "[site] url holds a password: put it in password_file (chmod 600)")
        }
        if let mode = target.sslMode, let required = settings.requiredSSLMode, mode != required {
            throw PostgresError(.settings, "[site] url asks for sslmode=\(mode) to another machine: tls = auto requires "
                + "verify-full (or say 'tls = off' in [site])")
        }
        url = settings.url
        sslMode = settings.requiredSSLMode
        timeout = settings.timeout
        resolver = .system
        if let file = settings.passwordFile {
            do {
                password = try SitePasswordFile.read(file)
            } catch {
                throw PostgresError(.settings, "[site] password_file: \(error.message)" + (error.fix.map { " — \($0)" } ?? ""))
            }
        } else {
            password = nil
        }
    }

    /// libpq's keywords in order: what the URI may override first, then the URI (`dbname`, expanded),
    /// then what it may not (the password, the TLS rule's sslmode). A store whose host vanished (a cable
    /// pulled: no reset ever comes) must still read as an outage: TCP keepalives find a silent peer of
    /// the idle listener, and `tcp_user_timeout` ends a request whose data is not acknowledged in 10 s.
    /// A server that is there but silent (stopped, swapping) is the request's deadline's (`timeout`),
    /// which the session keeps itself; `connect_timeout` says the same for libpq's own reading.
    /// The server's side (`options`): a desk's session holds its presence lock (the site's store), so
    /// the server must find a vanished desk's session dead within 10 s: keepalives after 3 s idle,
    /// every 2 s, two unanswered; unacknowledged data given up after 9 s.
    var keywords: [(String, String)] {
        var list = [("connect_timeout", String(max(1, timeout.components.seconds))), ("application_name", "intercom"),
                    ("keepalives", "1"), ("keepalives_idle", "10"),
                    ("keepalives_interval", "3"), ("keepalives_count", "3"), ("tcp_user_timeout", "10000"),
                    ("options", "-c tcp_keepalives_idle=3 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=2 -c tcp_user_timeout=9000"),
                    ("dbname", url)]
        if let password { list.append(("password", password)) }
        if let sslMode { list.append(("sslmode", sslMode)) }
        return list
    }
}
