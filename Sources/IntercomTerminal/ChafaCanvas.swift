internal import CChafa

/// One libchafa canvas for one geometry, created once and reused frame after frame (creating
/// it costs more than drawing). One owner at a time: chafa objects are not thread-safe.
/// Pictures go in as packed RGB (3 bytes a pixel, rows without padding).
public final class ChafaCanvas {
    /// What the canvas draws with.
    public enum Mode: Sendable { case symbols, sixels }

    /// The colours the symbols may use (sixel has its own palette).
    public enum Colors: Sendable { case truecolor, indexed256, indexed16, none }

    /// One cell of a symbols canvas: the glyph chafa chose and its colours as 0xRRGGBB.
    public struct Cell: Sendable, Equatable {
        public var glyph: Unicode.Scalar
        public var foreground: UInt32
        public var background: UInt32
    }

    public let cols: Int
    public let rows: Int
    private let chafa: intercom_chafa
    private let config: OpaquePointer
    private let canvas: OpaquePointer
    private let symbols: OpaquePointer
    private let termInfo: OpaquePointer

    /// Nil when libchafa refuses the configuration or cannot be loaded (`loadProblem` says why).
    public init?(mode: Mode, cols: Int, rows: Int, cellWidth: Int, cellHeight: Int, colors: Colors) {
        guard case .success(let functions) = ChafaLibrary.loaded else { return nil }
        let chafa = functions.c
        self.chafa = chafa
        guard let config = chafa.canvas_config_new() else { return nil }
        guard let symbols = chafa.symbol_map_new() else { chafa.canvas_config_unref(config); return nil }
        self.cols = cols
        self.rows = rows
        self.config = config
        self.symbols = symbols
        chafa.canvas_config_set_geometry(config, Int32(cols), Int32(rows))
        chafa.canvas_config_set_cell_geometry(config, Int32(max(1, cellWidth)), Int32(max(1, cellHeight)))
        chafa.canvas_config_set_pixel_mode(config, mode == .symbols ? CHAFA_PIXEL_MODE_SYMBOLS : CHAFA_PIXEL_MODE_SIXELS)
        // chafa's usual set: richer than half blocks, without ALL's 3× cost.
        chafa.symbol_map_add_by_tags(symbols, ChafaSymbolTags(
            rawValue: CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_BORDER.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue))
        chafa.canvas_config_set_symbol_map(config, symbols)
        let canvasMode: ChafaCanvasMode
        switch colors {
        case .truecolor: canvasMode = CHAFA_CANVAS_MODE_TRUECOLOR
        case .indexed256: canvasMode = CHAFA_CANVAS_MODE_INDEXED_240
        case .indexed16: canvasMode = CHAFA_CANVAS_MODE_INDEXED_16
        case .none: canvasMode = CHAFA_CANVAS_MODE_FGBG
        }
        // Sixel has its own palette; the canvas mode only matters for symbols.
        chafa.canvas_config_set_canvas_mode(config, mode == .symbols ? canvasMode : CHAFA_CANVAS_MODE_TRUECOLOR)
        // Low work factor: the measured sweet spot for speed vs looks.
        chafa.canvas_config_set_work_factor(config, 0.2)
        guard let canvas = chafa.canvas_new(config),
              let info = chafa.term_db_get_fallback_info(chafa.term_db_get_default()) else {
            chafa.symbol_map_unref(symbols)
            chafa.canvas_config_unref(config)
            return nil
        }
        self.canvas = canvas
        self.termInfo = info
    }

    /// Why no canvas can be made here (libchafa missing), or nil when it can.
    public static var loadProblem: String? { ChafaLibrary.loaded.loadProblem }

    deinit {
        chafa.term_info_unref(termInfo)
        chafa.canvas_unref(canvas)
        chafa.symbol_map_unref(symbols)
        chafa.canvas_config_unref(config)
    }

    private func draw(rgb: [UInt8], width: Int, height: Int) {
        guard width > 0, height > 0, rgb.count >= width * height * 3 else { return }
        rgb.withUnsafeBufferPointer { px in
            chafa.canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGB8, px.baseAddress,
                                         Int32(width), Int32(height), Int32(width * 3))
        }
    }

    /// Symbols mode: the cells chafa chose, row by row, read back so our own diffing printer sends them.
    public func cells(rgb: [UInt8], width: Int, height: Int) -> [Cell] {
        draw(rgb: rgb, width: width, height: height)
        var cells: [Cell] = []
        cells.reserveCapacity(cols * rows)
        for y in 0..<rows {
            for x in 0..<cols {
                let code = chafa.canvas_get_char_at(canvas, Int32(x), Int32(y))
                var fg: Int32 = 0, bg: Int32 = 0
                chafa.canvas_get_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                // -1 means "terminal default"; black is the closest we can say.
                cells.append(Cell(glyph: Unicode.Scalar(code) ?? " ", foreground: fg < 0 ? 0 : UInt32(fg) & 0xFFFFFF,
                                  background: bg < 0 ? 0 : UInt32(bg) & 0xFFFFFF))
            }
        }
        return cells
    }

    /// Pixel modes: chafa's printed sequence (sixel DCS) as bytes.
    public func printed(rgb: [UInt8], width: Int, height: Int) -> [UInt8] {
        draw(rgb: rgb, width: width, height: height)
        guard let string = chafa.canvas_print(canvas, termInfo) else { return [] }
        defer { _ = chafa.g_string_free(string, 1) }
        guard let text = string.pointee.str else { return [] }
        return text.withMemoryRebound(to: UInt8.self, capacity: Int(string.pointee.len)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(string.pointee.len)))
        }
    }
}
