/// Text made to fit a width on the screen: never cut silently mid-word. A text that is too long
/// ends in "…" (at the end of a word when one ends near the cut, so the reader sees where it was
/// shortened); a paragraph is wrapped at spaces. Widths count characters (the screen's texts are
/// one cell per character: no wide scripts in what we write).
enum TextFit {
    static let ellipsis: Character = "…"

    /// `text` in at most `width` characters.
    static func ellipsize(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        guard text.count > width else { return text }
        guard width > 1 else { return String(ellipsis) }
        var cut = String(text.prefix(width - 1))
        // Back to the last word's end when it is close (a third of the width at most), so the
        // text does not end in a fragment before the "…".
        if let space = cut.lastIndex(of: " "), cut.distance(from: space, to: cut.endIndex) <= max(1, width / 3),
           cut.distance(from: cut.startIndex, to: space) > 0 {
            cut = String(cut[..<space])
        }
        while cut.last == " " { cut.removeLast() }
        return cut + String(ellipsis)
    }

    /// `text` then `mark` in at most `width` characters. The mark (a list line's `[clip 12]`, which a
    /// key acts on) is kept whole and the text before it is shortened; only a width too narrow for the
    /// mark and a few characters of the text shortens the two as one.
    static func ellipsize(_ text: String, _ width: Int, keeping mark: String) -> String {
        guard text.count + mark.count > width else { return text + mark }
        let room = width - mark.count
        guard room >= 4 else { return ellipsize(text + mark, width) }
        return ellipsize(text, room) + mark
    }

    /// A message whose last clause (after its last "; ") says what to do, with that clause first:
    /// `A: why; do this` → `do this — A: why`; nil when it has no such clause.
    static func adviceFirst(_ text: String) -> String? {
        guard let split = text.range(of: "; ", options: .backwards) else { return nil }
        let advice = text[split.upperBound...], before = text[..<split.lowerBound]
        guard !advice.isEmpty, !before.isEmpty else { return nil }
        return "\(advice) — \(before)"
    }

    /// `text` padded with spaces (or shortened with "…") to exactly `width` characters.
    static func pad(_ text: String, _ width: Int) -> String {
        let fitted = ellipsize(text, width)
        return fitted + String(repeating: " ", count: max(0, width - fitted.count))
    }

    /// `text` wrapped at spaces into lines of at most `width` characters; a word longer than a
    /// line is shortened with "…". `indent` starts every line after the first.
    static func wrap(_ text: String, _ width: Int, indent: Int = 0) -> [String] {
        guard width > indent + 1 else { return [ellipsize(text, width)] }
        var lines: [String] = []
        var line = ""
        let pad = String(repeating: " ", count: indent)
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let start = lines.isEmpty && line.isEmpty ? "" : pad
            let room = width - (line.isEmpty ? start.count : 0)
            if line.isEmpty {
                line = start + ellipsize(String(word), room)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = pad + ellipsize(String(word), width - indent)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
