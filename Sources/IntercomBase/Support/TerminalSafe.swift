/// Makes text that came from outside (a panel's door error, a model name, a content type, a
/// caller's display name) safe to print on a terminal. A control character in such text could
/// move the cursor, rewrite earlier lines, change the window title or, on some terminals, answer
/// with input of its own; so every C0 control (U+0000–U+001F), DEL (U+007F) and C1 control
/// (U+0080–U+009F) is shown as `\u{XX}` instead, tab and newline included: outside text is one
/// field on one line. Everything else, including other non-ASCII letters, passes unchanged.
public enum TerminalSafe {
    /// `text` with every control character spelt `\u{1B}` (hex, upper case, at least two digits).
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                let spelt = "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
                out.append(contentsOf: spelt.unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// C0, DEL and C1: the characters a terminal may act on instead of showing.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
