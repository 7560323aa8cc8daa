import IntercomBase

/// `intercom log` on a terminal fits its width (issue 38: rows of 150 columns wrapped on an 80
/// column terminal, the picture path longest of all). Piped output keeps every column as it
/// always had: scripts cut it by columns, and `--json` is there for them.
extension LogCommand {
    static let header = ["ID", "TIME", "PANEL", "CALLER", "OUTCOME", "DURATION", "PICTURE"]
    private static let picture = 6, caller = 3, outcome = 4
    /// The free-text columns are cut no shorter than this.
    private static let narrowest = 12

    /// The table for a terminal `width` columns wide (nil: not a terminal, or `--wide`: every
    /// column whole). The picture path is shown only when the whole table fits with it; then the
    /// caller and the outcome, the widest first, are cut with an ellipsis until it fits.
    static func render(_ cells: [[String]], width: Int?) -> String {
        guard let width else { return TextTable.render([header] + cells) }
        var rows = [header] + cells
        var widths = columnWidths(rows)
        if total(widths) > width {
            rows = rows.map { Array($0.prefix(picture)) }
            widths = Array(widths.prefix(picture))
        }
        while total(widths) > width {
            let widest = widths[caller] >= widths[outcome] ? caller : outcome
            guard widths[widest] > narrowest else { break }
            widths[widest] -= 1
        }
        for column in [caller, outcome] where column < widths.count {
            let cap = widths[column]
            for r in rows.indices where column < rows[r].count && rows[r][column].count > cap {
                rows[r][column] = String(rows[r][column].prefix(cap - 1)) + "…"
            }
        }
        return TextTable.render(rows)
    }

    private static func columnWidths(_ rows: [[String]]) -> [Int] {
        var widths = [Int](repeating: 0, count: header.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], TerminalSafe.escape(cell).count)
            }
        }
        return widths
    }

    /// A line's length: the columns and two spaces between each.
    private static func total(_ widths: [Int]) -> Int { widths.reduce(0, +) + 2 * (widths.count - 1) }
}
