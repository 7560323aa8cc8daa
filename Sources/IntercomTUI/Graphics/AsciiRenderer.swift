import IntercomImaging

/// Plain characters by brightness, no colour: for dumb terminals, NO_COLOR and logs.
enum AsciiRenderer {
    /// Dark to light.
    static let ramp: [Unicode.Scalar] = Array(" .:-=+*#%@".unicodeScalars)

    static func grid(_ image: RGBImage, cols: Int, rows: Int) -> CellGrid {
        // One cell's luma is the half-block average of its two halves.
        let colour = HalfBlockRenderer.grid(image, cols: cols, rows: rows)
        let cells = colour.cells.map { cell -> Cell in
            let top = cell.glyph == " " ? cell.background : cell.foreground
            let luma = (lumaOf(top) + lumaOf(cell.background)) / 2
            return Cell(ramp[min(ramp.count - 1, luma * ramp.count / 256)], foreground: 0, background: 0)
        }
        return CellGrid(cols: cols, rows: rows, cells: cells)
    }

    private static func lumaOf(_ rgb: UInt32) -> Int {
        (299 * Int(rgb >> 16 & 0xFF) + 587 * Int(rgb >> 8 & 0xFF) + 114 * Int(rgb & 0xFF)) / 1000
    }
}
