/// Printing an account never shows its password (see `PanelConfig+Redacted`).
extension SIPAccount: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "SIPAccount(identity: \(Redaction.uri(identity)), password: \(password == nil ? "nil" : Redaction.mask), "
            + "proxy: \(proxy.map(Redaction.uri) ?? "nil"), expiresSeconds: \(expiresSeconds))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["identity": Redaction.uri(identity), "password": password == nil ? "nil" : Redaction.mask,
                                "proxy": proxy.map(Redaction.uri) as Any, "expiresSeconds": expiresSeconds])
    }
}
