/// A registrar account; without one the client only takes direct calls.
public struct SIPAccount: Sendable, Equatable {
    /// `sip:` or `sips:` URI, e.g. `sip:101@pbx.example.org`.
    public var identity: String
    public var password: String?
    /// Outbound proxy URI; may carry `;transport=tcp`.
    public var proxy: String?
    public var expiresSeconds: Int

    public init(identity: String, password: String? = nil, proxy: String? = nil,
                expiresSeconds: Int = 600) {
        self.identity = identity
        self.password = password
        self.proxy = proxy
        self.expiresSeconds = expiresSeconds
    }
}
