import IntercomBase

/// Columns padded to their widest cell, two spaces apart, no trailing blanks; cells are made
/// terminal-safe (names and addresses come from panels and operators).
public enum TextTable {
    public static func render(_ rows: [[String]]) -> String {
        let safe = rows.map { $0.map(TerminalSafe.escape) }
        let columns = safe.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in safe.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return safe.map { row in
            var line = ""
            for (i, cell) in row.enumerated() {
                if i > 0 { line += "  " }
                line += cell + String(repeating: " ", count: widths[i] - cell.count)
            }
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
