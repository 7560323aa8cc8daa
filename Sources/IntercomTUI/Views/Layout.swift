/// Where things go on a window of a given size: a title bar, the picture, the call or idle
/// text beside it (wide windows) or above it (tall ones), a message line and the key bar.
struct Layout: Equatable {
    struct Box: Equatable {
        var row: Int, column: Int, cols: Int, rows: Int
    }

    var picture: Box
    var info: Box
    var messageRow: Int
    var keysRow: Int

    /// Wide when the window is more than about twice as wide as tall (cells are ~1:2).
    /// `infoNeed`: the columns the longest line of the text beside the picture takes; the two
    /// share the width by need — the text gets what it needs, from a third up to half the window
    /// (the picture keeps the rest) — and without it a third, 28 to 40 columns. `messageRows`: a
    /// message wrapped onto more than one row takes them from the body (`messageRow` is its first).
    static func of(cols: Int, rows: Int, infoNeed: Int? = nil, messageRows: Int = 1) -> Layout {
        let extra = max(0, min(messageRows, 3) - 1)
        let body = Box(row: 1, column: 0, cols: cols, rows: max(1, rows - 3 - extra))
        if cols >= 100 || cols > rows * 3 {
            let third = min(40, max(28, cols / 3))
            let infoCols = infoNeed.map { min(max(third, $0 + 2), max(third, cols / 2)) } ?? third
            return Layout(picture: Box(row: body.row, column: 0, cols: max(1, cols - infoCols - 1), rows: body.rows),
                          info: Box(row: body.row, column: cols - infoCols, cols: infoCols, rows: body.rows),
                          messageRow: rows - 2 - extra, keysRow: rows - 1)
        }
        let infoRows = min(7, max(4, body.rows / 3))
        return Layout(picture: Box(row: body.row + infoRows, column: 0, cols: cols, rows: max(1, body.rows - infoRows)),
                      info: Box(row: body.row, column: 0, cols: cols, rows: infoRows),
                      messageRow: rows - 2 - extra, keysRow: rows - 1)
    }

    /// Kiosk: one tile per panel, as square a grid as the window allows; each tile has a title row.
    static func tiles(count: Int, cols: Int, rows: Int) -> [Box] {
        guard count > 0 else { return [] }
        let top = 1, height = max(2, rows - 3)
        var best = (columns: 1, score: -1.0)
        for columns in 1...count {
            let lines = (count + columns - 1) / columns
            let w = Double(cols / columns), h = Double(height / lines - 1) * 2
            let score = min(w, h * 4 / 3)
            if score > best.score { best = (columns, score) }
        }
        let lines = (count + best.columns - 1) / best.columns
        let w = cols / best.columns, h = height / lines
        return (0..<count).map { i in
            Box(row: top + (i / best.columns) * h, column: (i % best.columns) * w, cols: max(1, w - 1), rows: max(2, h))
        }
    }
}
