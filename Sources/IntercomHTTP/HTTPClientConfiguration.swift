import IntercomBase
/// Everything an `HTTPClient` needs that stays the same for every request to one panel.
public struct HTTPClientConfiguration: Sendable {
    public var user: String
    public var password: String
    /// Digest only, or Basic allowed too (`[panel] auth`).
    public var auth: PanelAuth
    /// Skip certificate verification (self-signed panel certificates).
    public var insecure: Bool
    /// A PEM bundle to verify the panel's certificate with instead of the system store.
    public var caFile: String?
    public var connectTimeout: Duration
    /// Whole-request limit for ordinary requests; streams use `idleTimeout` instead.
    public var timeout: Duration
    public var maxBodyBytes: Int
    public var userAgent: String

    public init(
        user: String,
        password: String,
        auth: PanelAuth = .digest,
        insecure: Bool = false,
        caFile: String? = nil,
        connectTimeout: Duration = .seconds(3),
        timeout: Duration = .seconds(5),
        maxBodyBytes: Int = 8 << 20,
        userAgent: String = "intercom/\(IntercomVersion.string)"
    ) {
        self.user = user
        self.password = password
        self.auth = auth
        self.insecure = insecure
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.userAgent = userAgent
    }
}

extension Duration {
    /// curl takes milliseconds as a C long; round up so 1 ns never becomes "no limit" (0).
    var curlMilliseconds: Int {
        let (seconds, atto) = components
        let ms = seconds * 1000 + (atto + 999_999_999_999_999) / 1_000_000_000_000_000
        return max(1, Int(ms))
    }
}
