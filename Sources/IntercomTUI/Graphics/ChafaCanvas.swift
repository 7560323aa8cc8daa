import CChafa
import IntercomEngine

/// One libchafa canvas for one geometry, created once and reused frame after frame (creating
/// it costs more than drawing). One owner at a time: chafa objects are not thread-safe.
final class ChafaCanvas {
    let cols: Int
    let rows: Int
    private let config: OpaquePointer
    private let canvas: OpaquePointer
    private let symbols: OpaquePointer
    private let termInfo: OpaquePointer

    /// Nil when libchafa refuses the configuration.
    init?(pixelMode: ChafaPixelMode, cols: Int, rows: Int, cellPixels: PixelSize, depth: ColorDepth) {
        guard let config = chafa_canvas_config_new() else { return nil }
        guard let symbols = chafa_symbol_map_new() else { chafa_canvas_config_unref(config); return nil }
        self.cols = cols
        self.rows = rows
        self.config = config
        self.symbols = symbols
        chafa_canvas_config_set_geometry(config, Int32(cols), Int32(rows))
        chafa_canvas_config_set_cell_geometry(config, Int32(max(1, cellPixels.width)), Int32(max(1, cellPixels.height)))
        chafa_canvas_config_set_pixel_mode(config, pixelMode)
        // chafa's usual set (reference §2): richer than half blocks, without ALL's 3× cost.
        chafa_symbol_map_add_by_tags(symbols, ChafaSymbolTags(
            rawValue: CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_BORDER.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue))
        chafa_canvas_config_set_symbol_map(config, symbols)
        let mode: ChafaCanvasMode
        switch depth {
        case .truecolor: mode = CHAFA_CANVAS_MODE_TRUECOLOR
        case .indexed256: mode = CHAFA_CANVAS_MODE_INDEXED_240
        case .indexed16: mode = CHAFA_CANVAS_MODE_INDEXED_16
        case .none: mode = CHAFA_CANVAS_MODE_FGBG
        }
        // Sixel has its own palette; the canvas mode only matters for symbols.
        chafa_canvas_config_set_canvas_mode(config, pixelMode == CHAFA_PIXEL_MODE_SYMBOLS ? mode : CHAFA_CANVAS_MODE_TRUECOLOR)
        // Low work factor: the measured sweet spot for speed vs looks (reference §2).
        chafa_canvas_config_set_work_factor(config, 0.2)
        guard let canvas = chafa_canvas_new(config),
              let info = chafa_term_db_get_fallback_info(chafa_term_db_get_default()) else {
            chafa_symbol_map_unref(symbols)
            chafa_canvas_config_unref(config)
            return nil
        }
        self.canvas = canvas
        self.termInfo = info
    }

    deinit {
        chafa_term_info_unref(termInfo)
        chafa_canvas_unref(canvas)
        chafa_symbol_map_unref(symbols)
        chafa_canvas_config_unref(config)
    }

    private func draw(_ image: RGBImage) {
        image.pixels.withUnsafeBufferPointer { px in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGB8, px.baseAddress,
                                         Int32(image.width), Int32(image.height), Int32(image.width * 3))
        }
    }

    /// Symbols mode: the cells chafa chose, read back so our own diffing printer sends them.
    func grid(_ image: RGBImage) -> CellGrid {
        draw(image)
        var cells = [Cell](repeating: .blank, count: cols * rows)
        for y in 0..<rows {
            for x in 0..<cols {
                let code = chafa_canvas_get_char_at(canvas, Int32(x), Int32(y))
                var fg: Int32 = 0, bg: Int32 = 0
                chafa_canvas_get_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                let glyph = Unicode.Scalar(code) ?? " "
                // -1 means "terminal default"; black is the closest we can say.
                cells[y * cols + x] = Cell(glyph, foreground: fg < 0 ? 0 : UInt32(fg) & 0xFFFFFF,
                                           background: bg < 0 ? 0 : UInt32(bg) & 0xFFFFFF)
            }
        }
        return CellGrid(cols: cols, rows: rows, cells: cells)
    }

    /// Pixel modes: chafa's printed sequence (sixel DCS) as bytes.
    func printed(_ image: RGBImage) -> [UInt8] {
        draw(image)
        guard let string = chafa_canvas_print(canvas, termInfo) else { return [] }
        defer { g_string_free(string, 1) }
        guard let text = string.pointee.str else { return [] }
        return text.withMemoryRebound(to: UInt8.self, capacity: Int(string.pointee.len)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(string.pointee.len)))
        }
    }
}
