/// Printing a panel (a log line, a failed test's message, `dump`) never shows its password:
/// Swift's default description would print every stored property.
extension PanelConfig: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "PanelConfig(name: \(name), url: \(Redaction.uri(url)), user: \(user), password: \(password == nil ? "nil" : Redaction.mask))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["name": name, "url": Redaction.uri(url), "user": user,
                                "password": password == nil ? "nil" : Redaction.mask, "match": match,
                                "open": open, "calls": calls, "autoAnswer": autoAnswer, "tlsInsecure": tlsInsecure,
                                "caFile": caFile as Any])
    }
}
