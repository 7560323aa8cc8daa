/// Turns the reference's Markdown-inline text into roff for the man pages: `code` becomes bold,
/// *words* italic; backslashes, hyphens and a leading dot or quote are escaped so groff prints
/// them as written.
public enum Roff {
    /// One paragraph of text (no line breaks kept).
    public static func text(_ markdown: String) -> String {
        var out = ""
        var inCode = false
        var inEmphasis = false
        let characters = Array(markdown)
        for (index, character) in characters.enumerated() {
            switch character {
            case "`":
                out += inCode ? "\\fR" : "\\fB"
                inCode.toggle()
            case "*" where !inCode && emphasisMark(characters, index, closing: inEmphasis):
                out += inEmphasis ? "\\fR" : "\\fI"
                inEmphasis.toggle()
            default:
                out += escape(character)
            }
        }
        if inCode || inEmphasis { out += "\\fR" }
        return guardLineStart(out)
    }

    /// Text with no Markdown in it (a usage line, an option's value name).
    public static func literal(_ plain: String) -> String {
        guardLineStart(plain.map(escape).joined())
    }

    private static func escape(_ character: Character) -> String {
        switch character {
        case "\\": "\\e"
        case "-": "\\-"
        case "\n": " "
        default:
            // groff reads ASCII; anything else by its code point (an em dash is \[u2014]).
            character.isASCII ? String(character)
                : character.unicodeScalars.map { "\\[u" + hex($0.value) + "]" }.joined()
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A `*` opens emphasis before a word and closes it after one (a lone `*` as in DTMF stays).
    private static func emphasisMark(_ characters: [Character], _ index: Int, closing: Bool) -> Bool {
        if closing { return index > 0 && !characters[index - 1].isWhitespace }
        return index + 1 < characters.count && characters[index + 1].isLetter
    }

    /// A line that starts with `.` or `'` would be read as a request.
    private static func guardLineStart(_ text: String) -> String {
        text.hasPrefix(".") || text.hasPrefix("'") ? "\\&" + text : text
    }
}
