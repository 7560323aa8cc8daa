import IntercomImaging

/// The kiosk at scale: which panels get a picture tile and where, which are listed one line each,
/// the page, the name filter and the list mode. Pure: the screen's size, the panels and which ring
/// go in, an arrangement comes out, so it is tested without a terminal.
///
/// Tiles keep their places (the configuration's order): a ringing panel is not moved, so the
/// tile the concierge is looking at stays where it was. A ringing panel is never filtered out,
/// and one that rings on another page takes the last tiles of this one: a visitor at a panel
/// the concierge is not looking at must still be seen. Tiles are at least `minimumTile` big;
/// when more panels are left than tiles fit, a column on the right lists the rest.
struct KioskView: Equatable {
    /// At most this many tiles play their live sub stream (the first ones: ringing panels
    /// first); the others show stills at 1 fps. 16 sub streams (352×288, 15 fps) cost about 15 %
    /// of a core (BENCHMARKS.md, "Live video"); every stream is a decode thread.
    static let liveTiles = 16
    /// The stills of a panel without a tile (in the list, paged or filtered away) are decoded at
    /// this size: an eighth of a 640×480 JPEG, scaled in its DCT.
    static let offScreenStill = PixelSize(width: 80, height: 60)

    /// The page of tiles (or of list lines in list mode), 0-based; clamped when drawn.
    var page = 0
    /// The kept filter (case-insensitive part of a name); empty = every panel.
    var filter = ""
    /// `/` was pressed: what is typed so far (the filter follows it live); nil = not typing.
    var typing: String?
    /// `v`: every panel as a line (name, state) instead of tiles.
    var listMode = false

    /// The smallest tile: a title row and a picture of 5 rows × 22 columns (about 4:3 in cells).
    static let minimumTile = (cols: 22, rows: 6)
    /// The column listing the panels beyond the tiles.
    static let listWidth = 26

    enum Key: Equatable {
        case nextPage, previousPage, startFilter, toggleList
        /// While typing the filter.
        case type(Character), backspace, keep, clear
    }

    /// What the screen shows now.
    struct Arrangement: Equatable {
        /// Panels drawn as tiles, in order, with their boxes (the title row is `box.row`).
        var tiles: [(panel: String, box: Layout.Box)]
        /// Panels drawn as one line each (beyond the tiles, or all of the page in list mode).
        var lines: [(panel: String, row: Int, column: Int, cols: Int)]
        /// Panels that match the filter (ringing ones included) and how many pages they take.
        var shown: Int
        var page: Int
        var pages: Int

        static func == (a: Arrangement, b: Arrangement) -> Bool {
            a.tiles.map(\.panel) == b.tiles.map(\.panel) && a.tiles.map(\.box) == b.tiles.map(\.box)
                && a.lines.map(\.panel) == b.lines.map(\.panel) && a.shown == b.shown && a.page == b.page && a.pages == b.pages
        }
    }

    var filterShown: String? { typing ?? (filter.isEmpty ? nil : filter) }

    mutating func apply(_ key: Key) {
        switch key {
        case .nextPage: page += 1
        case .previousPage: page = max(0, page - 1)
        case .toggleList: listMode.toggle(); page = 0
        case .startFilter: typing = filter
        case .type(let c):
            guard typing != nil, (typing?.count ?? 0) < 64 else { return }
            typing?.append(c)
            page = 0
        case .backspace:
            if typing?.isEmpty == false { typing?.removeLast() }
            page = 0
        case .keep:
            filter = typing ?? filter
            typing = nil
        case .clear:
            (filter, typing, page) = ("", nil, 0)
        }
    }

    /// The panels shown, in the configuration's order: those matching the filter, and ringing ones whatever it says.
    func order(_ panels: [String], ringing: Set<String>) -> [String] {
        let needle = (filterShown ?? "").lowercased()
        return panels.filter { ringing.contains($0) || needle.isEmpty || $0.lowercased().contains(needle) }
    }

    /// The tiles that play their live stream: ringing ones first, then in order, `liveTiles` in all.
    static func live(_ tiles: [String], ringing: Set<String>) -> Set<String> {
        let first = tiles.filter { ringing.contains($0) }
        return Set((first + tiles.filter { !ringing.contains($0) }).prefix(liveTiles))
    }

    /// Where everything goes in a body of `cols` × `rows` starting at row 1 (`rows` as `Layout.tiles`
    /// takes it: the whole window, less the title, message and key rows).
    func arrange(_ panels: [String], ringing: Set<String>, cols: Int, rows: Int) -> Arrangement {
        let all = order(panels, ringing: ringing)
        let height = max(1, rows - 3)
        if listMode { return list(all, cols: cols, height: height) }
        let fit = { (width: Int) in max(1, width / Self.minimumTile.cols) * max(1, height / Self.minimumTile.rows) }
        guard all.count > fit(cols) else {
            let boxes = Layout.tiles(count: all.count, cols: cols, rows: rows)
            return Arrangement(tiles: Array(zip(all, boxes)).map { ($0, $1) }, lines: [], shown: all.count, page: 0, pages: 1)
        }
        // Too many: tiles on the left, a page at a time, the rest listed on the right.
        let tileCols = max(Self.minimumTile.cols, cols - Self.listWidth - 1)
        let capacity = fit(tileCols)
        let pages = max(1, (all.count + capacity - 1) / capacity)
        let page = min(self.page, pages - 1)
        let onPage = Array(all.dropFirst(page * capacity).prefix(capacity))
        // Panels ringing on other pages take this page's last tiles.
        let elsewhere = Array(all.filter { ringing.contains($0) && !onPage.contains($0) }.prefix(capacity))
        let tiled = Array(onPage.prefix(min(onPage.count, capacity - elsewhere.count))) + elsewhere
        let boxes = Self.grid(count: tiled.count, cols: tileCols, height: height)
        let beyond = all.filter { !tiled.contains($0) }
        let column = tileCols + 1
        let lines = beyond.prefix(height).enumerated().map { (i, panel) in
            (panel: panel, row: 1 + i, column: column, cols: max(1, cols - column))
        }
        return Arrangement(tiles: Array(zip(tiled, boxes)).map { ($0, $1) }, lines: Array(lines),
                           shown: all.count, page: page, pages: pages)
    }

    /// A full page: as many minimum-size tiles as fit, grown evenly to fill `cols` × `height`.
    private static func grid(count: Int, cols: Int, height: Int) -> [Layout.Box] {
        let columns = max(1, cols / minimumTile.cols), lines = max(1, height / minimumTile.rows)
        let w = cols / columns, h = height / lines
        return (0..<min(count, columns * lines)).map { i in
            Layout.Box(row: 1 + (i / columns) * h, column: (i % columns) * w, cols: max(1, w - 1), rows: h)
        }
    }

    /// List mode: columns of one-line entries, a page at a time.
    private func list(_ all: [String], cols: Int, height: Int) -> Arrangement {
        let columns = max(1, cols / Self.listWidth)
        let perPage = columns * height
        let pages = max(1, (all.count + perPage - 1) / perPage)
        let page = min(self.page, pages - 1)
        let lines = all.dropFirst(page * perPage).prefix(perPage).enumerated().map { (i, panel) in
            (panel: panel, row: 1 + i % height, column: (i / height) * Self.listWidth, cols: Self.listWidth - 1)
        }
        return Arrangement(tiles: [], lines: Array(lines), shown: all.count, page: page, pages: pages)
    }
}
