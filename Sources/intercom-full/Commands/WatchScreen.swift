import Foundation
import IntercomCLI
import IntercomEngine
import IntercomTUI

/// What `intercom watch` shows: the picture letterboxed above one status line.
struct WatchScreen {
    let panel: String
    let fps: Double
    let mode: GraphicsMode
    let renderer: ImageRenderer
    let cellPixels: PixelSize
    private var window = WindowSize(cols: 80, rows: 24)
    private var lastJPEG: Data?
    private var shown = 0
    private var lastError: String?

    init(panel: String, fps: Double, mode: GraphicsMode, renderer: ImageRenderer, cellPixels: PixelSize) {
        self.panel = panel
        self.fps = fps
        self.mode = mode
        self.renderer = renderer
        self.cellPixels = cellPixels
    }

    private var area: CellArea { CellArea(cols: window.cols, rows: max(1, window.rows - 1)) }

    /// A new size (SIGWINCH, Ctrl-L): clear and draw the last picture whole.
    mutating func resize(to size: WindowSize) {
        window = size
        renderer.reset()
        TerminalOutput.write("\u{1B}[0m\u{1B}[2J")
        if let lastJPEG { draw(lastJPEG) }
        drawStatus()
    }

    mutating func show(_ jpeg: Data) {
        lastError = nil
        // An identical picture (a still doorway, a panel that caches) costs nothing to skip.
        if jpeg == lastJPEG { return }
        lastJPEG = jpeg
        draw(jpeg)
        shown += 1
        drawStatus()
    }

    mutating func status(error: String) {
        lastError = error
        drawStatus()
    }

    private func draw(_ jpeg: Data) {
        guard let image = try? JPEG.decode(jpeg, covering: renderer.decodeSize(for: area, cellPixels: cellPixels)) else { return }
        let frame = renderer.render(image: image, into: area, cellPixels: cellPixels)
        TerminalOutput.write(frame.bytes)
    }

    private func drawStatus() {
        var text = " \(panel) · \(mode.rawValue) · \(fps.formatted()) fps · #\(shown) · q quits"
        if let lastError { text += " · \(lastError)" }
        let line = String(text.prefix(window.cols))
        TerminalOutput.write("\u{1B}[\(window.rows);1H\u{1B}[0m\u{1B}[7m\(line)\u{1B}[0m\u{1B}[K")
    }
}
