/// The authentication schemes a server's `WWW-Authenticate` challenges named.
public struct HTTPAuthMethods: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let basic = HTTPAuthMethods(rawValue: 1 << 0)
    public static let digest = HTTPAuthMethods(rawValue: 1 << 1)
    /// Any other scheme (NTLM, Bearer …): none a panel should ask for.
    public static let other = HTTPAuthMethods(rawValue: 1 << 2)

    /// Reads the scheme of one raw header line (`WWW-Authenticate: Digest realm=…`); other lines give [].
    /// Several challenges may share one line, comma separated, so every scheme token is looked at.
    init(challengeLine line: String) {
        self = []
        guard let colon = line.firstIndex(of: ":"),
              line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "www-authenticate" else { return }
        for part in Self.splitOutsideQuotes(line[line.index(after: colon)...]) {
            // A scheme starts a challenge; "realm=…" and other parameters have an '='.
            let word = part.trimmingCharacters(in: .whitespacesAndNewlines).prefix { $0 != " " }
            guard !word.isEmpty, !word.contains("=") else { continue }
            switch word.lowercased() {
            case "basic": insert(.basic)
            case "digest": insert(.digest)
            default: insert(.other)
            }
        }
    }

    /// `qop="auth,auth-int"` is one parameter: commas inside quotes do not split.
    private static func splitOutsideQuotes(_ text: Substring) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if escaped { escaped = false; continue }
            if quoted, character == "\\" { escaped = true; continue }
            if character == "\"" { quoted.toggle(); continue }
            if character == ",", !quoted {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
        }
        parts.append(text[start...])
        return parts
    }

    public var description: String {
        var names: [String] = []
        if contains(.digest) { names.append("Digest") }
        if contains(.basic) { names.append("Basic") }
        if contains(.other) { names.append("another scheme") }
        return names.isEmpty ? "no authentication" : names.joined(separator: " and ")
    }
}
