/// A picture as terminal cells, and the bytes that put it on screen: all of it, or only the
/// cells that differ from the previous grid. Call video of a doorway is mostly still, so the
/// diff is what keeps ssh sessions and slow terminals keeping up.
public struct CellGrid: Sendable, Equatable {
    public let cols: Int
    public let rows: Int
    public var cells: [Cell]

    public init(cols: Int, rows: Int, cells: [Cell]) {
        precondition(cells.count == cols * rows, "a grid needs cols × rows cells")
        self.cols = cols
        self.rows = rows
        self.cells = cells
    }

    public subscript(column: Int, row: Int) -> Cell { cells[row * cols + column] }

    /// Unchanged cells this short between two changed runs are rewritten rather than jumped
    /// over: a cursor move costs about as much as a few cells.
    static let mergeGap = 3

    /// Bytes drawing the grid with its top-left at (`row`, `column`), 0-based. With a
    /// `previous` grid of the same size only changed cells are sent; colours are emitted only
    /// when they change from the last cell written.
    public func bytes(at row: Int, column: Int, previous: CellGrid?, depth: ColorDepth) -> [UInt8] {
        var shown = previous
        return update(at: row, column: column, shown: &shown, depth: depth)
    }

    /// Bytes that bring the terminal from `shown` (what it shows, nil: unknown) to this grid;
    /// `shown` becomes what it shows afterwards. At truecolor a cell whose two halves are each within
    /// `unchangedWithin` of what is shown is left as it is: a decoded video frame differs from
    /// the last in every cell by a step or two of noise, and redrawing all of them would send a
    /// whole frame 25 times a second. The cell shown stays the reference, so slow drifts (a light
    /// dimming) are drawn once they exceed the tolerance and nothing strays further than it.
    /// `sizeHint`: about how many bytes to expect (the last frame's), to allocate once.
    func update(at row: Int, column: Int, shown: inout CellGrid?, depth: ColorDepth, sizeHint: Int = 0) -> [UInt8] {
        let diffing = shown.map { $0.cols == cols && $0.rows == rows } ?? false
        var reference = diffing ? shown?.cells ?? [] : []
        // Taken out of `shown` so the cells are changed in place, not copied.
        shown = nil
        var out: [UInt8] = []
        out.reserveCapacity(max(sizeHint + sizeHint / 4, diffing ? 256 : cols * rows * 20))
        var pen = Pen()
        var wroteColour = false
        let tolerance: UInt32 = depth == .truecolor ? Self.unchangedWithin : 0
        cells.withUnsafeBufferPointer { now in
            reference.withUnsafeMutableBufferPointer { was in
                for y in 0..<rows {
                    let base = y * cols
                    var x = 0
                    while x < cols {
                        if diffing, Self.looksSame(was[base + x], now[base + x], within: tolerance) { x += 1; continue }
                        // A changed run: extend it while changes keep coming within mergeGap.
                        var end = x + 1
                        if diffing {
                            var probe = end
                            while probe < cols, probe - end <= Self.mergeGap {
                                if !Self.looksSame(was[base + probe], now[base + probe], within: tolerance) { end = probe + 1 }
                                probe += 1
                            }
                        } else {
                            end = cols
                        }
                        SGR.moveTo(row: row + y, column: column + x, &out)
                        for i in x..<end {
                            if Self.draw(now[base + i], pen: &pen, depth: depth, &out) { wroteColour = true }
                            if diffing { was[base + i] = now[base + i] }
                        }
                        x = end
                    }
                }
            }
        }
        if wroteColour { out += SGR.reset }
        shown = CellGrid(cols: cols, rows: rows, cells: diffing ? reference : cells)
        return out
    }

    /// How far (per channel, of 255) a half-block cell's colours may move and still count as
    /// unchanged: under 2 %, below what a cell of video shows.
    static let unchangedWithin: UInt32 = 4

    /// Whether `new` looks like `old` on screen: the same cell, or at `within` > 0 two half-block
    /// cells (`▀` or a space) whose top and bottom halves are each that close.
    static func looksSame(_ old: Cell, _ new: Cell, within: UInt32) -> Bool {
        if old == new { return true }
        guard within > 0, let a = halves(old), let b = halves(new) else { return false }
        return close(a.top, b.top, within) && close(a.bottom, b.bottom, within)
    }

    /// The colours a half-block renderer's cell shows at its top and bottom.
    private static func halves(_ cell: Cell) -> (top: UInt32, bottom: UInt32)? {
        switch cell.glyph {
        case " ": return (cell.background, cell.background)
        case upperHalf: return (cell.foreground, cell.background)
        default: return nil
        }
    }

    private static func close(_ a: UInt32, _ b: UInt32, _ within: UInt32) -> Bool {
        func channel(_ shift: UInt32) -> Bool {
            let x = a >> shift & 0xFF, y = b >> shift & 0xFF
            return (x > y ? x - y : y - x) <= within
        }
        return channel(16) && channel(8) && channel(0)
    }

    /// The whole grid at the cursor, one line per row, for output that scrolls like text
    /// (`snapshot --show` to a pipe or a shell prompt). `indent` centres it.
    public func inlineBytes(indent: Int, depth: ColorDepth) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(cols * rows * 20)
        for y in 0..<rows {
            if indent > 0 { out += [UInt8](repeating: 0x20, count: indent) }
            var pen = Pen()
            for x in 0..<cols { _ = Self.draw(cells[y * cols + x], pen: &pen, depth: depth, &out) }
            // Reset before the newline so the background doesn't bleed to the line's end.
            if depth != .none { out += SGR.reset }
            out.append(0x0A)
        }
        return out
    }

    /// The colours last set on the terminal; nil = unknown.
    struct Pen {
        var fg: UInt32?
        var bg: UInt32?
    }

    static let upperHalf: Unicode.Scalar = "\u{2580}"
    static let lowerHalf: Unicode.Scalar = "\u{2584}"
    static let fullBlock: Unicode.Scalar = "\u{2588}"

    /// How far (per channel, of 255) a colour may be from the pen's and still be drawn with the pen's:
    /// about 3 %, below what a terminal cell of video shows, and it saves most colour changes of
    /// smooth areas (walls, sky), where neighbouring cells differ by a step or two.
    static let nearEnough: UInt32 = 8

    static func near(_ a: UInt32?, _ b: UInt32) -> Bool {
        guard let a else { return false }
        return close(a, b, nearEnough)
    }

    /// Writes one cell, setting only the colours the pen lacks; true when it wrote a colour.
    /// Half blocks and solid cells each have two spellings that look the same — `▀` top-on-bottom
    /// or `▄` with the colours swapped, a space on a background or `█` in a foreground — and the
    /// one the pen already holds the colours for is sent; a colour `near` the pen's is drawn with
    /// the pen's. A video frame's neighbouring cells share colours, so this saves most colour
    /// changes (a truecolor change is ~19 bytes, a cell 1–3). Exact at indexed depths, whose
    /// palette already rounds.
    @discardableResult
    static func draw(_ cell: Cell, pen: inout Pen, depth: ColorDepth, _ out: inout [UInt8]) -> Bool {
        let tolerant = depth == .truecolor
        func has(_ pen: UInt32?, _ colour: UInt32) -> Bool { pen == colour || (tolerant && near(pen, colour)) }
        var cell = cell
        // Halves this close look as one colour: a space (1 byte) instead of a half block (3).
        if tolerant, cell.glyph == upperHalf, near(cell.foreground, cell.background) {
            let kept = has(pen.fg, cell.foreground) || has(pen.bg, cell.foreground) ? cell.foreground : cell.background
            cell = Cell(" ", foreground: 0, background: kept)
        }
        var glyph = cell.glyph
        var fg: UInt32? = cell.foreground
        var bg: UInt32? = cell.background
        if depth != .none {
            switch glyph {
            case " ":
                // Only one colour shows: as a foreground when the pen has it there and not as background.
                if !has(pen.bg, cell.background), has(pen.fg, cell.background) {
                    glyph = fullBlock
                    fg = cell.background
                    bg = nil
                } else {
                    fg = nil
                }
            case upperHalf:
                let straight = (has(pen.fg, cell.foreground) ? 0 : 1) + (has(pen.bg, cell.background) ? 0 : 1)
                let swapped = (has(pen.fg, cell.background) ? 0 : 1) + (has(pen.bg, cell.foreground) ? 0 : 1)
                if swapped < straight {
                    glyph = lowerHalf
                    fg = cell.background
                    bg = cell.foreground
                }
            default:
                break
            }
        }
        if let colour = fg, has(pen.fg, colour) { fg = nil }
        if let colour = bg, has(pen.bg, colour) { bg = nil }
        let wrote = depth != .none && (fg != nil || bg != nil)
        if wrote {
            SGR.append(foreground: fg, background: bg, depth: depth, to: &out)
            if let fg { pen.fg = fg }
            if let bg { pen.bg = bg }
        }
        appendUTF8(glyph, &out)
        return wrote
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, _ out: inout [UInt8]) {
        let v = scalar.value
        if v < 0x80 { out.append(UInt8(v)); return }
        out += scalar.utf8
    }
}
