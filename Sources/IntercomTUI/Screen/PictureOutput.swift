import Foundation
import IntercomImaging
import IntercomTerminal

/// The screens' pictures, written straight to the terminal into the areas ncurses leaves
/// empty: one renderer per slot (0 the main picture, 1… the kiosk tiles; slot + 1 is the
/// kitty image id), each drawn only when its source has a new frame and the terminal took the
/// last one (FramePacer: newest frame wins, nothing queues). Used from the TUI thread only.
final class PictureOutput {
    /// A picture to draw: `id` changes when the picture does; `image` is only asked for then.
    typealias Source = (id: String, image: () -> RGBImage?)

    let choice: GraphicsChoice
    private let capabilities: TerminalCapabilities
    private let writer: TerminalWriter
    private var renderers: [Int: ImageRenderer] = [:]
    private var drawn: [Int: String] = [:]
    private var pacer = FramePacer()
    /// Inside tmux with a pixel mode forced: where our pane sits (asked again on resize).
    private var paneOrigin = PaneOrigin.zero

    init(choice: GraphicsChoice, capabilities: TerminalCapabilities, writer: TerminalWriter = .standardOutput) {
        self.choice = choice
        self.capabilities = capabilities
        self.writer = writer
        updatePaneOrigin()
    }

    func updatePaneOrigin() {
        guard choice.tmuxPassthrough else { return }
        paneOrigin = TmuxPane.origin(environment: capabilities.environment)
    }

    /// Forget every picture: the next frames are drawn whole by fresh renderers.
    func reset() {
        erase()
        renderers.removeAll()
        drawn.removeAll()
        pacer.forget()
    }

    /// The next frames are drawn whole (ncurses rewrote the lines around them), by the same renderers.
    func redrawWhole() {
        for renderer in renderers.values { renderer.reset() }
        drawn.removeAll()
    }

    /// Kitty images sit above the text: clearing the screen does not remove them inside tmux,
    /// so a call's picture would stay after it ended.
    func erase() {
        for renderer in renderers.values { writer.write(renderer.eraseBytes()) }
    }

    /// What each slot's last frame cost (bytes written, time the write took): tests read it.
    func lastFrame(slot: Int) -> (bytes: Int, writeTime: Duration)? {
        pacer.records[slot].map { ($0.bytes, $0.writeTime) }
    }

    /// The pixel size a picture drawn in `area` can show (what a live stream is scaled to).
    func pixelSize(for area: CellArea) -> PixelSize {
        ImageRenderer.decodeSize(mode: choice.mode, area: area, cellPixels: capabilities.cellPixels)
    }

    /// Draws the source's picture if it is new and the terminal took the last one; true when it went out.
    @discardableResult
    func draw(slot: Int, area: CellArea, source: Source?) -> Bool {
        guard let source, drawn[slot] != source.id else { return false }
        let whole = drawn[slot] == nil
        // Video may come faster than the terminal (or an SSH link) takes it: a frame goes out only
        // when the pacer says the terminal had time for the last one, and then it is the source's
        // newest (a whole redraw after a resize or Ctrl-L is never held back).
        let now = ContinuousClock.now
        if !whole, !pacer.mayDraw(slot: slot, at: now) { return false }
        guard let image = source.image() else { return false }
        drawn[slot] = source.id
        let renderer = renderers[slot] ?? ImageRenderer(choice: choice, capabilities: capabilities, imageID: slot + 1)
        renderer.paneOrigin = paneOrigin
        renderers[slot] = renderer
        let frame = renderer.render(image: image, into: area, cellPixels: capabilities.cellPixels)
        // An identical picture needs no bytes; it still counts as shown.
        guard !frame.bytes.isEmpty else { return true }
        // Saved and restored cursor and attributes: ncurses keeps believing the cursor is where it left it.
        var out = Array("\u{1B}7".utf8)
        if whole {
            // ncurses may have moved screen lines (with the picture on them) when its text changed;
            // a whole redraw first blanks the area, so nothing of an older picture stays around it.
            var blank = "\u{1B}[0m"
            for row in area.row..<(area.row + area.rows) { blank += "\u{1B}[\(row + 1);\(area.column + 1)H\u{1B}[\(area.cols)X" }
            out += Array(blank.utf8)
        }
        out += frame.bytes
        out += Array("\u{1B}8".utf8)
        // One write: the terminal never shows the blanked area without the picture (flicker).
        let began = ContinuousClock.now
        writer.write(out)
        pacer.record(slot: slot, began: now, bytes: out.count, writeTime: began.duration(to: .now))
        return true
    }

    /// A journal picture from disk; nil when it was pruned or is unreadable.
    static func picture(at path: String) -> RGBImage? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JPEG.decode(data)
    }
}
