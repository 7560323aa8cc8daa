/// The `host[:port]` or `[v6][:port]` of a URL's or a SIP URI's authority: the host with its brackets
/// taken off and the text after its `:`, unchecked (each reader has its own rules for both). Nil when
/// a `[` is not closed, or anything but `:PORT` follows the `]`.
enum AuthorityText {
    /// Where a host written without brackets ends: at its first `:` (SIP) or its last (URLs).
    enum PortColon { case first, last }

    static func split(_ text: Substring, portAfter colon: PortColon) -> (host: Substring, portText: Substring?)? {
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if after.isEmpty { return (host, nil) }
            guard after.first == ":" else { return nil }
            return (host, after.dropFirst())
        }
        guard let index = colon == .first ? text.firstIndex(of: ":") : text.lastIndex(of: ":") else { return (text, nil) }
        return (text[..<index], text[text.index(after: index)...])
    }
}
