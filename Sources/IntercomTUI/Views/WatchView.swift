import Foundation
import IntercomEngine

/// `intercom watch`: one panel's peephole over the whole window above one status line. The
/// frames come from the intercom's peephole hub, as the call screen's do; this keeps what the
/// status line counts.
struct WatchView {
    let panel: String
    let fps: Double
    /// Pictures shown so far; an identical picture (a still doorway, a panel that caches) is not
    /// drawn again and not counted.
    private(set) var shown = 0
    private var lastSequence: Int?
    private var lastJPEG: Data?
    private(set) var frame: PeepholeFrame?

    init(_ options: WatchOptions) {
        panel = options.panel
        fps = options.fps
    }

    /// Takes the hub's newest frame; true when it is a new picture to draw.
    @discardableResult
    mutating func take(_ latest: PeepholeFrame?) -> Bool {
        guard let latest, latest.sequence != lastSequence else { return false }
        lastSequence = latest.sequence
        guard latest.jpeg != lastJPEG else { return false }
        lastJPEG = latest.jpeg
        frame = latest
        shown += 1
        return true
    }

    /// What the picture slot draws: changes only with a new picture.
    var source: PictureOutput.Source? {
        guard let frame else { return nil }
        return ("w\(shown)", { frame.image })
    }

    func status(mode: GraphicsMode, problem: String?) -> String {
        var text = " \(panel) · \(mode.rawValue) · \(fps.formatted()) fps · #\(shown) · q quits"
        if let problem { text += " · \(problem)" }
        return text
    }

    /// The picture takes the window but its last row.
    static func area(cols: Int, rows: Int) -> CellArea { CellArea(cols: cols, rows: max(1, rows - 1)) }

    /// How often the screen looks for a new frame: twice a frame, 20–100 ms.
    var pace: Int { min(100, max(20, Int(500 / max(0.1, fps)))) }

    /// q, Q, Ctrl-C and Ctrl-D quit (the screen is in raw mode, so Ctrl-C is a key).
    static func quits(_ key: Int32) -> Bool { [0x71, 0x51, 0x03, 0x04].contains(key) }
}
