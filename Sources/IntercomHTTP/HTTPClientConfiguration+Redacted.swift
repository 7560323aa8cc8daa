import IntercomBase
/// Printing an HTTP client's settings never shows the panel password (see `PanelConfig+Redacted`).
extension HTTPClientConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "HTTPClientConfiguration(user: \(user), password: \(Redaction.mask), auth: \(auth.rawValue), insecure: \(insecure), caFile: \(caFile ?? "nil"))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["user": user, "password": Redaction.mask, "auth": auth, "insecure": insecure, "caFile": caFile as Any,
                                "connectTimeout": connectTimeout, "timeout": timeout, "maxBodyBytes": maxBodyBytes])
    }
}
