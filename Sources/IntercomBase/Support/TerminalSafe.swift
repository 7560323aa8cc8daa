/// Makes text that came from outside (a panel's door error, a model name, a content type, a
/// caller's display name, an operator's names) safe to print on a terminal or in a log. A control
/// character in such text could move the cursor, rewrite earlier lines, change the window title
/// or, on some terminals, answer with input of its own; so every C0 control (U+0000–U+001F), DEL
/// (U+007F) and C1 control (U+0080–U+009F) is shown as `\u{XX}` instead. So are the Unicode
/// bidirectional controls (embeddings, overrides, isolates, marks): on a terminal that honours
/// them, a right-to-left override in a caller's name turns the rest of the line backwards, our
/// own words included, so a name can make the line read as it likes. Bytes that are not UTF-8
/// never get this far: Swift decodes them to U+FFFD, which is printable.
///
/// This is the one way out: `Console` (every command's output), `Logger` (every log line), the
/// TUI's `Curses.put` and the setup/login prompts all pass their text through it, so a site that
/// forgets to escape a field still writes no control byte. Fields from outside are escaped at the
/// site too (`escape`), which also spells a newline, so one can never forge a line of its own.
public enum TerminalSafe {
    /// `text` with every control character spelt `\u{1B}` (hex, upper case, at least two digits),
    /// tab and newline included: outside text is one field on one line.
    public static func escape(_ text: String) -> String {
        spell(text, where: isControl)
    }

    /// Text our own code laid out (several lines, tab-aligned) with outside fields in it: every
    /// control character but newline and tab spelt as `escape` does. For whole outputs, not fields.
    public static func lines(_ text: String) -> String {
        spell(text) { isControl($0) && $0 != "\n" && $0 != "\t" }
    }

    /// C0, DEL, C1 and the bidirectional controls: the characters a terminal may act on instead of showing.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || isBidiControl(scalar)
    }

    /// ALM (U+061C), LRM and RLM (U+200E, U+200F), the embeddings and overrides (U+202A–U+202E) and
    /// the isolates (U+2066–U+2069): invisible, they reorder what a terminal shows around them.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func spell(_ text: String, where unsafe: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: unsafe) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if unsafe(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                let spelt = "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
                out.append(contentsOf: spelt.unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
