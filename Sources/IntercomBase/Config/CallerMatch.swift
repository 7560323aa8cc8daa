import Foundation

/// One rule that recognises an incoming call as coming from a panel.
public enum CallerMatch: Sendable, Equatable, CustomStringConvertible {
    /// The caller's SIP URI starts with this (e.g. `sip:100001@`).
    case uriPrefix(String)
    /// The caller's address is this IP literal.
    case ip(String)

    /// `sip:`/`sips:` values are URI prefixes, anything else must be an IP literal.
    public init(parsing text: String) throws(ConfigValueError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        if lower.hasPrefix("sip:") || lower.hasPrefix("sips:") {
            self = .uriPrefix(trimmed)
            return
        }
        var address = Substring(trimmed)
        if address.first == "[" && address.last == "]" {
            address = address.dropFirst().dropLast()
        }
        guard IPLiteral.isValid(String(address)) else {
            throw ConfigValueError("'\(trimmed)' is neither a sip: URI prefix nor an IP address",
                                   fix: "write e.g. sip:100001@ or 192.168.1.50")
        }
        self = .ip(String(address))
    }

    /// `uri` may be a bare URI or a header value such as `"Door" <sip:1@host>`.
    /// When the transport did not tell us the source address (`ip == nil`),
    /// an IP rule is checked against the URI host instead.
    public func matches(uri: String, ip: String?) -> Bool {
        let bare = SIPURI.addressSpec(in: uri)
        switch self {
        case .uriPrefix(let prefix):
            return CallerMatch.hasPrefixIgnoringSchemeCase(bare, prefix: prefix)
        case .ip(let expected):
            guard let wanted = IPLiteral.bytes(expected) else { return false }
            let candidate = ip ?? SIPURI(parsing: String(bare))?.host
            guard let candidate, let actual = IPLiteral.bytes(candidate) else { return false }
            return actual == wanted
        }
    }

    public var description: String {
        switch self {
        case .uriPrefix(let prefix): return prefix
        case .ip(let address): return address
        }
    }

    private static func hasPrefixIgnoringSchemeCase(_ uri: Substring, prefix: String) -> Bool {
        guard let uriColon = uri.firstIndex(of: ":"),
              let prefixColon = prefix.firstIndex(of: ":") else { return false }
        guard uri[..<uriColon].lowercased() == prefix[..<prefixColon].lowercased() else { return false }
        return uri[uri.index(after: uriColon)...].hasPrefix(prefix[prefix.index(after: prefixColon)...])
    }
}
