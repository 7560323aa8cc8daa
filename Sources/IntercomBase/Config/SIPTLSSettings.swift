/// `[sip] tls_*`: how SIP over TLS (a `;transport=tls` or `sips:` registrar) is trusted and who we are.
/// liblinphone only ever *connects* over TLS, so these are client settings: the registrar's
/// certificate is checked against `caFile`, and `certificate`/`key` answer a registrar that asks
/// for a client certificate.
public struct SIPTLSSettings: Sendable, Equatable {
    /// Our client certificate (PEM chain); nil = none. Set together with `key`.
    public var certificate: String?
    /// The private key of `certificate` (PEM, unencrypted, owner-only permissions).
    public var key: String?
    /// PEM file or directory of CAs trusted for the registrar; nil = the system store.
    public var caFile: String?
    /// Off accepts any certificate (a lab registrar); on by default, like the panels' https.
    public var verify: Bool

    public init(certificate: String? = nil, key: String? = nil, caFile: String? = nil, verify: Bool = true) {
        self.certificate = certificate
        self.key = key
        self.caFile = caFile
        self.verify = verify
    }

    /// Debian's bundle, kept current by ca-certificates. liblinphone's own default
    /// (/usr/share/linphone/rootca.pem) is a copy frozen when the package was built.
    public static let systemCAFile = "/etc/ssl/certs/ca-certificates.crt"
}
