/// A `sip:` or `sips:` URI (RFC 3261 §19.1), read from a bare URI or from a header value such as
/// `"Door" <sip:100001@10.0.0.5:5060;transport=udp>;tag=x`. The one place SIP URIs are taken apart:
/// caller matching, the header screen, the phone's Contact hosts, redaction and config checks all
/// read them here, so they cannot disagree about where a host starts or ends.
///
/// Rules: the scheme is `sip` or `sips` in any case; the user-info ends at the last `@` before any
/// `?` (a `?` in a user part is not supported: it starts the headers); a password is whatever
/// follows the user-info's first `:`; the host is an `[IPv6]` literal (brackets removed) or runs to
/// `:`, `;` or `?`; a port is 1 to 5 digits up to 65535; parameters follow `;`, headers `?`.
public struct SIPURI: Sendable, Equatable, CustomStringConvertible {
    public enum Scheme: String, Sendable {
        case sip, sips
    }

    /// One `;name[=value]` parameter, as written.
    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var value: String?
        public init(name: String, value: String? = nil) {
            self.name = name
            self.value = value
        }
    }

    public var scheme: Scheme
    /// The user part without any password (nil when the URI has no user-info).
    public var user: String?
    /// Whether the user-info carries a non-empty password (`sip:user:password@host`). The password
    /// itself is never kept.
    public var hasPassword: Bool
    /// The host as written; an IPv6 literal without its brackets.
    public var host: String
    public var port: UInt16?
    public var parameters: [Parameter]
    /// The text after `?`, undecoded (nil without one).
    public var headers: String?

    /// Parses a bare URI or the URI inside a header value; nil when it is not a sip:/sips: URI
    /// with a host.
    public init?(parsing text: String) {
        guard let parts = SIPURI.split(SIPURI.addressSpec(in: text)) else { return nil }
        scheme = parts.scheme
        user = parts.userInfo.map { info in String(info.prefix { $0 != ":" }) }
        hasPassword = parts.passwordRange.map { !$0.isEmpty } ?? false
        var rest = parts.afterUserInfo
        if let question = rest.firstIndex(of: "?") {
            headers = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        } else {
            headers = nil
        }
        let paramStart = rest.firstIndex(of: ";")
        let hostPort = paramStart.map { rest[..<$0] } ?? rest
        guard let (host, port) = SIPURI.hostAndPort(hostPort) else { return nil }
        self.host = host
        self.port = port
        parameters = paramStart.map { start in
            rest[rest.index(after: start)...].split(separator: ";", omittingEmptySubsequences: true).map { item in
                if let eq = item.firstIndex(of: "=") {
                    return Parameter(name: String(item[..<eq]), value: String(item[item.index(after: eq)...]))
                }
                return Parameter(name: String(item))
            }
        } ?? []
    }

    /// The host in URI form: IPv6 literals in brackets.
    public var hostText: String { host.contains(":") ? "[\(host)]" : host }

    /// The first parameter called `name` (case-insensitive); `.some(nil)` for a flag such as `;lr`.
    public func parameter(_ name: String) -> String?? {
        parameters.first { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The URI without password or headers: safe to show.
    public var description: String {
        var text = "\(scheme.rawValue):"
        if let user { text += hasPassword ? "\(user):\(Redaction.mask)@" : "\(user)@" }
        text += hostText
        if let port { text += ":\(port)" }
        for parameter in parameters {
            text += ";\(parameter.name)" + (parameter.value.map { "=\($0)" } ?? "")
        }
        return text
    }

    // MARK: - Pieces shared with Redaction and the header screen

    /// The URI inside a header value (`"Do<or" <sip:1@h>;tag=x` → `sip:1@h`; a quoted display name
    /// may hold `<`), or the trimmed text as it is.
    public static func addressSpec(in text: String) -> Substring {
        let trimmed = Substring(text.trimmingCharacters(in: .whitespaces))
        var index = trimmed.startIndex
        var quoted = false
        while index < trimmed.endIndex {
            let character = trimmed[index]
            if quoted && character == "\\" {
                index = trimmed.index(after: index)
                if index == trimmed.endIndex { break }
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "<" && !quoted {
                let inside = trimmed[trimmed.index(after: index)...]
                return inside.firstIndex(of: ">").map { inside[..<$0] } ?? inside
            }
            index = trimmed.index(after: index)
        }
        return trimmed
    }

    /// Where the password of a `sip:`/`sips:` URI (bare, not a header value) sits in `text`:
    /// after the user-info's first `:`, up to its `@`. Nil when there is no user-info or no `:` in
    /// it; empty when the password is.
    static func passwordRange(in text: Substring) -> Range<Substring.Index>? {
        split(text)?.passwordRange
    }

    private struct Parts {
        var scheme: Scheme
        var userInfo: Substring?
        var passwordRange: Range<Substring.Index>?
        var afterUserInfo: Substring
    }

    private static func split(_ spec: Substring) -> Parts? {
        guard let colon = spec.firstIndex(of: ":"),
              let scheme = Scheme(rawValue: spec[..<colon].lowercased()) else { return nil }
        let afterScheme = spec[spec.index(after: colon)...]
        let beforeHeaders = afterScheme.prefix { $0 != "?" }
        guard let at = beforeHeaders.lastIndex(of: "@") else {
            return Parts(scheme: scheme, userInfo: nil, passwordRange: nil, afterUserInfo: afterScheme)
        }
        let userInfo = afterScheme[..<at]
        let passwordRange = userInfo.firstIndex(of: ":").map { userInfo.index(after: $0)..<at }
        return Parts(scheme: scheme, userInfo: userInfo, passwordRange: passwordRange,
                     afterUserInfo: afterScheme[afterScheme.index(after: at)...])
    }

    private static func hostAndPort(_ text: Substring) -> (String, UInt16?)? {
        guard let parts = AuthorityText.split(text, portAfter: .first) else { return nil }
        let host = parts.host
        // A bracketed host is an IPv6 literal.
        if text.first == "[", !host.contains(":") { return nil }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || "<>\"@[]".contains($0) }) else { return nil }
        guard let portText = parts.portText else { return (String(host), nil) }
        guard (1...5).contains(portText.count), portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
              let port = UInt16(portText) else { return nil }
        return (String(host), port)
    }
}
