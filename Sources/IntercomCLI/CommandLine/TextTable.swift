import IntercomBase

/// Columns padded to their widest cell, two spaces apart, no trailing blanks; cells are made
/// terminal-safe (names, addresses and outcomes come from panels, operators and the journal).
public enum TextTable {
    /// The rows, the first usually a header; a row may have fewer cells than another. `log` renders
    /// 100 000 rows with it, so it is plain Swift string work: each cell's width counted once (counting
    /// walks the string) and the lines appended straight to one buffer; Foundation's padding and
    /// formatting cost more than the journal's query.
    public static func render(_ rows: [[String]]) -> String {
        let safe = rows.map { $0.map(TerminalSafe.escape) }
        let counts = safe.map { $0.map(\.count) }
        var widths = [Int](repeating: 0, count: counts.map(\.count).max() ?? 0)
        for row in counts {
            for (column, count) in row.enumerated() { widths[column] = max(widths[column], count) }
        }
        var out = ""
        out.reserveCapacity(safe.count * (widths.reduce(0, +) + 2 * widths.count + 1))
        for (r, row) in safe.enumerated() {
            if r > 0 { out += "\n" }
            // Padding is written only when a cell follows it: no spaces at a line's end.
            var pending = 0
            for (column, cell) in row.enumerated() {
                if column > 0 { pending += 2 }
                if !cell.isEmpty {
                    if pending > 0 { out += String(repeating: " ", count: pending) }
                    out += cell
                    pending = 0
                }
                pending += widths[column] - counts[r][column]
            }
            // A cell's own trailing spaces, at the end of a line, go too.
            while out.utf8.last == UInt8(ascii: " ") { out.removeLast() }
        }
        return out
    }
}
