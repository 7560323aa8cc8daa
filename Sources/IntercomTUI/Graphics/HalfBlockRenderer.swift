import IntercomImaging

/// The video-rate symbols path: each cell is `▀` with the top half's colour as foreground and
/// the bottom half's as background, each a box-filtered average of its source pixels.
/// Debian's chafa 1.12 needs 25–40 ms for 160×48 (reference §5 and our bench); this needs
/// well under the 5 ms budget, at the cost of chafa's finer shapes.
enum HalfBlockRenderer {
    static func grid(_ image: RGBImage, cols: Int, rows: Int) -> CellGrid {
        let w = image.width, h = image.height
        let pixelRows = rows * 2
        // A live stream arrives scaled by its decoder to exactly a pixel per half cell.
        if w == cols, h == pixelRows { return exact(image, cols: cols, rows: rows) }
        // Source column and row spans of each output column / half-row, computed once.
        let xs = (0...cols).map { $0 * w / cols }
        let ys = (0...pixelRows).map { $0 * h / pixelRows }
        var cells = [Cell](repeating: .blank, count: cols * rows)
        image.pixels.withUnsafeBufferPointer { src in
            cells.withUnsafeMutableBufferPointer { out in
                var half = [UInt32](repeating: 0, count: cols)
                for py in 0..<pixelRows {
                    let y0 = ys[py], y1 = max(ys[py + 1], y0 + 1)
                    for cx in 0..<cols {
                        let x0 = xs[cx], x1 = max(xs[cx + 1], x0 + 1)
                        var r = 0, g = 0, b = 0
                        for y in y0..<min(y1, h) {
                            var i = (y * w + x0) * 3
                            for _ in x0..<min(x1, w) {
                                r &+= Int(src[i]); g &+= Int(src[i + 1]); b &+= Int(src[i + 2])
                                i += 3
                            }
                        }
                        let n = max(1, (min(y1, h) - y0) * (min(x1, w) - x0))
                        let rgb = UInt32(r / n) << 16 | UInt32(g / n) << 8 | UInt32(b / n)
                        if py & 1 == 0 {
                            half[cx] = rgb
                        } else {
                            out[(py / 2) * cols + cx] = cell(top: half[cx], bottom: rgb)
                        }
                    }
                }
            }
        }
        return CellGrid(cols: cols, rows: rows, cells: cells)
    }

    /// A cell from each pair of rows, no averaging: the picture is already at the cells' size.
    private static func exact(_ image: RGBImage, cols: Int, rows: Int) -> CellGrid {
        var cells = [Cell](repeating: .blank, count: cols * rows)
        image.pixels.withUnsafeBufferPointer { src in
            cells.withUnsafeMutableBufferPointer { out in
                for row in 0..<rows {
                    var top = row * 2 * cols * 3
                    var bottom = top + cols * 3
                    for column in 0..<cols {
                        let upper = UInt32(src[top]) << 16 | UInt32(src[top + 1]) << 8 | UInt32(src[top + 2])
                        let lower = UInt32(src[bottom]) << 16 | UInt32(src[bottom + 1]) << 8 | UInt32(src[bottom + 2])
                        out[row * cols + column] = cell(top: upper, bottom: lower)
                        top += 3
                        bottom += 3
                    }
                }
            }
        }
        return CellGrid(cols: cols, rows: rows, cells: cells)
    }

    /// Equal halves: a space with a background is shorter to send.
    private static func cell(top: UInt32, bottom: UInt32) -> Cell {
        top == bottom ? Cell(" ", foreground: 0, background: bottom) : Cell("\u{2580}", foreground: top, background: bottom)
    }
}
