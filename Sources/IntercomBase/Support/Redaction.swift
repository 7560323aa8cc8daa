/// Masks secrets in text we are about to show: `sip:user:password@host`, `http://user:password@host`
/// and a scheme-less `user:password@host` become `…user:***@host`. Used wherever a URI a user typed
/// is echoed.
public enum Redaction {
    public static let mask = "***"

    /// `text` with the password part of its user-info masked.
    public static func uri(_ text: String) -> String {
        guard let range = passwordRange(in: text) else { return text }
        return text.replacingCharacters(in: range, with: mask)
    }

    /// True when `text` carries `user:password@` (after its scheme, if any).
    public static func hasPassword(_ text: String) -> Bool { passwordRange(in: text) != nil }

    private static let webSchemes = ["https://", "http://"]

    /// sip:/sips: URIs follow `SIPURI`'s rules. Others: the password inside `[scheme]user:password@host…`,
    /// after the user-info's first ':' and before the '@' that ends it (the first one before any
    /// '/', '?', ';' or '>').
    private static func passwordRange(in text: String) -> Range<String.Index>? {
        let lower = text.lowercased()
        if lower.hasPrefix("sip:") || lower.hasPrefix("sips:") {
            guard let range = SIPURI.passwordRange(in: Substring(text)) else { return nil }
            return range.isEmpty ? nil : range
        }
        var start = text.startIndex
        if let scheme = webSchemes.first(where: { lower.hasPrefix($0) }) {
            start = text.index(start, offsetBy: scheme.count)
        }
        let authority = text[start...].prefix { !"/?;>".contains($0) }
        guard let at = authority.firstIndex(of: "@"),
              let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        let passwordStart = text.index(after: colon)
        return passwordStart < at ? passwordStart..<at : nil
    }
}
