import IntercomImaging
import IntercomTerminal

/// Draws pictures in the terminal with one API for every mode. Keeps the previous frame so it
/// can send only what changed: changed cells in character modes, nothing at all for an
/// identical picture in pixel modes. One owner (a screen or a command), not shared between
/// tasks; chafa canvases are cached per geometry.
public final class ImageRenderer {
    /// Where the bytes draw: `absolute` addresses the area's screen position (alternate
    /// screen, TUI); `inline` draws at the cursor and leaves it below the picture, like text.
    public enum Placement: Sendable { case absolute, inline }

    /// Symbols through libchafa (finer shapes, 25–40 ms at 160×48 with Debian's 1.12), or our
    /// half-block path (under a millisecond): stills vs video.
    public enum SymbolEngine: Sendable { case chafa, fast }

    public let mode: GraphicsMode
    public let depth: ColorDepth
    public let placement: Placement
    public let symbolEngine: SymbolEngine
    public let tmuxPassthrough: Bool
    /// The kitty image id: pictures on one screen need different ids, or each new one
    /// replaces the others (kiosk tiles).
    public let imageID: Int
    /// Inside tmux, where the pane starts on the real terminal (see `PaneOrigin`).
    public var paneOrigin = PaneOrigin.zero

    /// What the terminal shows of the last symbols frame (the next diff's reference).
    private var previousGrid: CellGrid?
    /// The size of the last symbols frame's bytes: the next one is about as large.
    private var previousBytes = 0
    private var previousKey: FrameKey?
    private var previousImage: RGBImage?
    private var chafa: (key: FrameKey, canvas: ChafaCanvas)?

    public init(mode: GraphicsMode, depth: ColorDepth, placement: Placement = .absolute,
                symbolEngine: SymbolEngine = .fast, tmuxPassthrough: Bool = false, imageID: Int = 1) {
        self.mode = mode
        self.depth = mode == .ascii ? .none : depth
        self.placement = placement
        self.symbolEngine = symbolEngine
        self.tmuxPassthrough = tmuxPassthrough
        self.imageID = imageID
    }

    public convenience init(choice: GraphicsChoice, capabilities: TerminalCapabilities,
                            placement: Placement = .absolute, symbolEngine: SymbolEngine = .fast, imageID: Int = 1) {
        self.init(mode: choice.mode, depth: capabilities.colorDepth, placement: placement,
                  symbolEngine: symbolEngine, tmuxPassthrough: choice.tmuxPassthrough, imageID: imageID)
    }

    /// Bytes that take this renderer's picture off the screen where clearing the text does
    /// not: a kitty image lives above the text and has to be deleted by id. Empty for the
    /// other modes, whose pictures are cell content that clearing the screen removes.
    public func eraseBytes() -> [UInt8] {
        guard mode == .kitty else { return [] }
        let delete = KittyEncoder.delete(imageID: imageID)
        return tmuxPassthrough ? TmuxPassthrough.wrap(delete) : delete
    }

    /// Forget the last frame: the next one is drawn whole (after a resize, a clear, Ctrl-L).
    public func reset() {
        previousGrid = nil
        previousKey = nil
        previousImage = nil
    }

    /// The smallest decode that still covers this area: pass it to `JPEG.decode(_:covering:)`.
    public func decodeSize(for area: CellArea, cellPixels: PixelSize) -> PixelSize {
        Self.decodeSize(mode: mode, area: area, cellPixels: cellPixels)
    }

    /// The pixels `mode` can show in `area`: a live stream is scaled to fit inside this.
    public static func decodeSize(mode: GraphicsMode, area: CellArea, cellPixels: PixelSize) -> PixelSize {
        switch mode {
        case .symbols, .ascii: return PixelSize(width: area.cols, height: area.rows * 2)
        case .kitty, .sixel, .iterm: return PixelSize(width: area.cols * cellPixels.width, height: area.rows * cellPixels.height)
        }
    }

    public func render(image: RGBImage, into area: CellArea, cellPixels: PixelSize) -> RenderedFrame {
        let fit = Letterbox(image: PixelSize(width: image.width, height: image.height), area: area, cellPixels: cellPixels)
        let key = FrameKey(area: area, fit: fit, cellPixels: cellPixels)
        let top = area.row + (placement == .absolute ? fit.rowOffset : 0)
        let left = area.column + fit.columnOffset
        defer { previousKey = key }

        if mode == .symbols || mode == .ascii {
            let grid = cellGrid(image, fit: fit, key: key, cellPixels: cellPixels)
            let bytes: [UInt8]
            switch placement {
            case .absolute:
                // What the terminal shows is the next diff's reference (cells left as they were included).
                if previousKey != key { previousGrid = nil }
                bytes = grid.update(at: top, column: left, shown: &previousGrid, depth: depth, sizeHint: previousBytes)
                previousBytes = bytes.count
            case .inline:
                bytes = grid.inlineBytes(indent: fit.columnOffset, depth: depth)
                previousGrid = grid
            }
            return RenderedFrame(bytes: bytes, cols: fit.cols, rows: fit.rows, columnOffset: fit.columnOffset,
                                 rowOffset: placement == .absolute ? fit.rowOffset : 0, changed: !bytes.isEmpty)
        }

        if placement == .absolute, previousKey == key, previousImage == image {
            return RenderedFrame(bytes: [], cols: fit.cols, rows: fit.rows, columnOffset: fit.columnOffset,
                                 rowOffset: fit.rowOffset, changed: false)
        }
        previousImage = image
        var bytes: [UInt8] = []
        // Inside tmux the picture reaches the real terminal wherever its cursor happens to be
        // (tmux does not move it first), so an absolutely placed picture carries its own move
        // inside the wrapper; the move outside keeps tmux's idea of the cursor the same.
        var inner: [UInt8] = []
        switch placement {
        case .absolute:
            SGR.moveTo(row: top, column: left, &bytes)
            if tmuxPassthrough { SGR.moveTo(row: top + paneOrigin.row, column: left + paneOrigin.column, &inner) }
        case .inline:
            bytes += [UInt8](repeating: 0x20, count: fit.columnOffset)
        }
        let box = PixelSize(width: fit.cols * cellPixels.width, height: fit.rows * cellPixels.height)
        switch mode {
        case .kitty:
            let chunks = KittyEncoder.chunks(image.shrunk(toFit: box), cols: fit.cols, rows: fit.rows, imageID: imageID)
            // kitty places the picture where the cursor is when the last chunk arrives, and tmux
            // may move the real cursor between chunks: each chunk carries the move.
            for chunk in chunks { bytes += tmuxPassthrough ? TmuxPassthrough.wrap(inner + chunk) : chunk }
            // kitty leaves the cursor where it was (C=1); inline output moves below the picture.
            if placement == .inline { bytes += [UInt8](repeating: 0x0A, count: fit.rows) }
        case .iterm:
            let sequence = ItermEncoder.bytes(image.shrunk(toFit: box), cols: fit.cols, rows: fit.rows)
            bytes += tmuxPassthrough ? TmuxPassthrough.wrap(inner + sequence) : sequence
            if placement == .inline { bytes.append(0x0A) }
        default:
            let sixel = canvas(for: key, mode: .sixels, fit: fit, cellPixels: cellPixels)?
                .printed(rgb: image.pixels, width: image.width, height: image.height) ?? []
            bytes += tmuxPassthrough ? TmuxPassthrough.wrap(inner + sixel) : sixel
            if placement == .inline { bytes.append(0x0A) }
        }
        return RenderedFrame(bytes: bytes, cols: fit.cols, rows: fit.rows, columnOffset: fit.columnOffset,
                             rowOffset: placement == .absolute ? fit.rowOffset : 0, changed: true)
    }

    private func cellGrid(_ image: RGBImage, fit: Letterbox, key: FrameKey, cellPixels: PixelSize) -> CellGrid {
        if mode == .ascii { return AsciiRenderer.grid(image, cols: fit.cols, rows: fit.rows) }
        if symbolEngine == .chafa,
           let canvas = canvas(for: key, mode: .symbols, fit: fit, cellPixels: cellPixels) {
            let cells = canvas.cells(rgb: image.pixels, width: image.width, height: image.height)
                .map { Cell($0.glyph, foreground: $0.foreground, background: $0.background) }
            return CellGrid(cols: canvas.cols, rows: canvas.rows, cells: cells)
        }
        return HalfBlockRenderer.grid(image, cols: fit.cols, rows: fit.rows)
    }

    private func canvas(for key: FrameKey, mode: ChafaCanvas.Mode, fit: Letterbox, cellPixels: PixelSize) -> ChafaCanvas? {
        if let chafa, chafa.key == key { return chafa.canvas }
        let colors: ChafaCanvas.Colors
        switch depth {
        case .truecolor: colors = .truecolor
        case .indexed256: colors = .indexed256
        case .indexed16: colors = .indexed16
        case .none: colors = .none
        }
        guard let canvas = ChafaCanvas(mode: mode, cols: fit.cols, rows: fit.rows, cellWidth: cellPixels.width,
                                       cellHeight: cellPixels.height, colors: colors) else { return nil }
        chafa = (key, canvas)
        return canvas
    }
}

/// The geometry a frame was drawn with; a change means the next frame is drawn whole.
struct FrameKey: Equatable {
    var area: CellArea
    var fit: Letterbox
    var cellPixels: PixelSize
}
