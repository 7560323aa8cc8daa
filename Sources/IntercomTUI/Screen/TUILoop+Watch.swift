import Foundation
import IntercomTerminal

/// The watch view (`intercom watch`): its keys, and its status line on the last row with the
/// picture above it.
extension TUILoop {
    func handleWatch(_ key: Int32) {
        if WatchView.quits(key) {
            running = false
        } else if key == KeyAction.keyCtrlL {
            resetPictures()
        }
    }

    /// The watch view: its status line on the last row, the panel's newest picture above it (a
    /// live frame scaled by the decoder to the area's pixels, else a snapshot). Only the last row
    /// holds text, so ncurses never touches the picture's rows.
    func drawWatch() {
        guard var watch else { return }
        let peephole = context.intercom
        let area = WatchView.area(cols: curses.cols, rows: curses.rows)
        peephole.want(panel: watch.panel, size: pictures.pixelSize(for: area), live: true)
        watch.take(peephole.latest(panel: watch.panel))
        defer { self.watch = watch }
        let now = Date()
        // Attached, the line says where it is attached now (a restarted daemon's pid), and while the
        // daemon is away, that it is: the picture stands still until the watch has attached again.
        let mode = peephole.mode
        if mode != .ownEngine { watch.attached = mode.shortTitle }
        let problem = peephole.problem(panel: watch.panel), note = mode.awayLine ?? peephole.streamNote(panel: watch.panel)
        let status = watch.status(mode: pictures.choice.mode, problem: problem, streamNote: note, at: now,
                                  width: max(0, curses.cols - 1))
        let headline = watch.headline(problem: problem, streamNote: note)
        // What the line says goes out at once; its counters (rate, pictures) at most
        // `WatchView.counterInterval` apart: redrawing the line with every video frame costs an
        // ncurses refresh and two writes 25 times a second.
        if status != lastStatus, headline != lastHeadline || now.timeIntervalSince(lastStatusAt) >= WatchView.counterInterval {
            lastStatus = status
            lastHeadline = headline
            lastStatusAt = now
            curses.erase()
            // Never the bottom-right cell (see `Curses.bar`).
            curses.put(curses.rows - 1, 0, String(status.prefix(max(0, curses.cols - 1))), .normal, reverse: true)
            // A changed status goes out whole, not as ncurses' diff of a few characters: it is
            // one short line, and whoever reads the terminal's output (a log, a test) sees it as shown.
            curses.redrawLines(from: curses.rows - 1, count: 1)
            curses.refresh()
        }
        // After ncurses' refresh, which may clear the screen (its first, a resize).
        if let source = watch.source(), pictures.draw(slot: 0, area: area, source: source) {
            watch.drew(id: source.id)
        }
    }
}
