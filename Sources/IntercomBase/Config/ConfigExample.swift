/// The text of `intercom config --example`, made from the config table (`ConfigSchema`): each
/// key's example value and comment lines, in the table's order. A test parses it to keep it honest.
public enum ConfigExample {
    public static let text = render()

    /// Comments start in this column, so the values and their explanations read as two columns.
    static let commentColumn = 33

    /// `showingAll` writes every commented-out line as in force (a test parses that too).
    static func render(showingAll: Bool = false) -> String {
        var lines = ConfigSchema.examplePreamble
        for section in ConfigSchema.sections {
            lines.append("")
            let header = section.example
            lines += commented(header.commentedOut && !showingAll ? "# " + (header.key ?? "") : header.key ?? "", header.comments)
            for row in section.rows {
                for example in row.example {
                    lines += example.before
                    lines += line(example, key: example.key ?? row.name, showingAll: showingAll)
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `key = value`, the key padded to its group's width, commented out when the line is only shown.
    static func line(_ example: ConfigExampleLine, key: String, showingAll: Bool = false) -> [String] {
        let padded = key.count < example.keyWidth ? key + String(repeating: " ", count: example.keyWidth - key.count) : key
        var text = (example.commentedOut && !showingAll ? "# " : "") + padded + " ="
        if !example.value.isEmpty { text += " " + example.value }
        return commented(text, example.comments)
    }

    /// The first comment beside `text` at the comment column, the rest below it in the same column.
    static func commented(_ text: String, _ comments: [String]) -> [String] {
        guard let first = comments.first else { return [text] }
        let gap = text.count < commentColumn ? commentColumn - text.count : 3
        var lines = [text + String(repeating: " ", count: gap) + "# " + first]
        for more in comments.dropFirst() {
            lines.append(String(repeating: " ", count: commentColumn) + "# " + more)
        }
        return lines
    }
}
