import Foundation
import IntercomBase
import IntercomImaging

/// `intercom watch`: one panel's picture over the whole window above one status line. The
/// frames come from the intercom's peephole hub — live stream frames, else snapshots — as the
/// call screen's do; this keeps what the status line counts and says.
struct WatchView {
    let panel: String
    /// `--fps`: the most pictures drawn a second; nil = every frame.
    let cap: Double?
    /// "attached, pid N" when the daemon plays the picture (the line says so after the name).
    var attached: String?
    /// Pictures drawn so far. An identical snapshot (a still doorway, a panel that caches) is not
    /// drawn again and not counted; live frames are never compared (every one is new).
    private(set) var shown = 0
    private var lastSequence: Int?
    private var lastJPEG: Data?
    /// The newest frame not drawn yet.
    private(set) var pending: PeepholeFrame?
    private(set) var frame: PeepholeFrame?
    private var lastDrawn: Date?
    /// When the last pictures were drawn, for the measured rate.
    private var recent: [Date] = []

    init(_ options: WatchOptions) {
        panel = options.panel
        cap = options.fps
    }

    /// Takes the hub's newest frame; true when it is a new picture to draw (now or, under `--fps`,
    /// once its turn comes).
    @discardableResult
    mutating func take(_ latest: PeepholeFrame?) -> Bool {
        guard let latest, latest.sequence != lastSequence else { return pending != nil }
        lastSequence = latest.sequence
        if latest.kind == .snapshot, let jpeg = latest.jpeg {
            guard jpeg != lastJPEG else { return pending != nil }
            lastJPEG = jpeg
        } else {
            lastJPEG = nil
        }
        pending = latest
        return true
    }

    /// What the picture slot should draw now: the pending frame, unless `--fps` says wait.
    func source(at now: Date = Date()) -> PictureOutput.Source? {
        guard let pending else { return frame.map { frame in ("w\(frame.sequence)", { frame.image }) } }
        if let cap, let lastDrawn, now.timeIntervalSince(lastDrawn) < 1 / cap - 0.002 {
            return frame.map { frame in ("w\(frame.sequence)", { frame.image }) }
        }
        return ("w\(pending.sequence)", { pending.image })
    }

    /// The slot drew the picture `id` (`source`'s): count it.
    mutating func drew(id: String, at now: Date = Date()) {
        guard let pending, id == "w\(pending.sequence)" else { return }
        frame = pending
        self.pending = nil
        lastDrawn = now
        shown += 1
        recent.append(now)
        recent.removeAll { now.timeIntervalSince($0) > 2 }
    }

    /// Pictures drawn a second over the last two seconds.
    func measuredFPS(at now: Date = Date()) -> Double {
        let window = recent.filter { now.timeIntervalSince($0) <= 2 }
        guard window.count > 1, let first = window.first else { return 0 }
        let span = max(now.timeIntervalSince(first), 0.5)
        return Double(window.count - 1) / span
    }

    /// E.g. " porch · symbols · live 25.0 fps · #312 · q quits", then the stream's or the panel's trouble.
    /// With `width` (the columns the line may use), when that does not fit the counters shrink to
    /// `snapshots #312`, then a note drops its closing clause (": showing snapshots", which the
    /// counters say too), then the counters and the panel's name go, then it is cut at a word: what is
    /// wrong stays readable.
    func status(mode: GraphicsMode, problem: String?, streamNote: String? = nil, at now: Date = Date(),
                width: Int? = nil) -> String {
        var counters = (attached.map { " · \($0)" } ?? "") + " · \(mode.rawValue) · \(kind) \(String(format: "%.1f", measuredFPS(at: now))) fps"
        if let cap { counters += " (max \(cap.formatted()))" }
        counters += " · #\(shown) · q quits"
        // Cleared by the next live frame, so it shows exactly while the stream is down.
        let trouble = [streamNote, problem].compactMap { $0 }.map { " · \($0)" }.joined()
        let full = " \(panel)" + counters + trouble
        guard let width, full.count > width, !trouble.isEmpty else { return full }
        let compact = " \(panel) · \(kind) #\(shown)"
        var candidates = ["\(compact)\(trouble) · q quits", "\(compact)\(trouble)"]
        if let streamNote, let cut = streamNote.range(of: ": ", options: .backwards) {
            let shorter = " · \(streamNote[..<cut.lowerBound])" + (problem.map { " · \($0)" } ?? "")
            // Last, without the panel's name: a panel's note names it in the key to fix.
            candidates += ["\(compact)\(shorter)", " \(panel)\(shorter)", " " + shorter.dropFirst(3)]
        }
        if let fitting = candidates.first(where: { $0.count <= width }) { return fitting }
        return Self.cut(candidates.last ?? full, to: width)
    }

    /// `text` cut at the last space that leaves room for "…" within `width`.
    static func cut(_ text: String, to width: Int) -> String {
        guard text.count > width, width > 1 else { return text }
        let room = text.prefix(width - 1)
        let end = room.lastIndex(of: " ").map { room[..<$0] } ?? room
        return String(end) + "…"
    }

    /// `live` or `snapshots`: the pending frame's, which is drawn right after the line.
    private var kind: String { (pending ?? frame)?.kind == .live ? "live" : "snapshots" }

    /// The status line without its counters: a change here is drawn at once.
    func headline(problem: String?, streamNote: String?) -> String {
        [kind, streamNote ?? "", problem ?? ""].joined(separator: "\u{1F}")
    }

    /// How often the line's counters are brought up to date while only they change.
    static let counterInterval: TimeInterval = 0.2

    /// The picture takes the window but its last row.
    static func area(cols: Int, rows: Int) -> CellArea { CellArea(cols: cols, rows: max(1, rows - 1)) }

    /// How often the screen looks for a new frame when nothing wakes it: a new frame in the hub
    /// wakes it at once, so this only keeps the measured rate and `--fps` turns current.
    var pace: Int {
        guard let cap else { return 100 }
        return min(100, max(10, Int(500 / max(0.1, cap))))
    }

    /// q, Q, Ctrl-C and Ctrl-D quit (the screen is in raw mode, so Ctrl-C is a key).
    static func quits(_ key: Int32) -> Bool { [0x71, 0x51, 0x03, 0x04].contains(key) }
}
