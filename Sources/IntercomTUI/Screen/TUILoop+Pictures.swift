import Foundation
import IntercomBase
import IntercomTerminal

/// The pictures of the call screen and the kiosk, written into the area ncurses leaves empty: where
/// the text and the picture go, what each tile or the call's area shows, and the idle screen's last visitor.
extension TUILoop {
    func resetPictures() {
        pictures.reset()
        curses.invalidate()
        // ncurses repaints everything at its next refresh: the watch line must be in it.
        lastStatus = nil
    }

    /// Where the text and the picture go this turn, and the text beside the picture: the two
    /// share the width by what the text needs.
    func layoutAndInfo() -> (Layout, [InfoLine]) {
        let height = Layout.of(cols: curses.cols, rows: curses.rows).info.rows
        let tiles = context.options.kiosk && !model.journalShown
        let info = tiles || model.showHelp ? [] : model.infoLines(now: Date(), height: height)
        return (Layout.of(cols: curses.cols, rows: curses.rows, infoNeed: ScreenModel.need(info),
                          messageRows: model.messageRows(cols: curses.cols, now: Date())), info)
    }

    /// How often the journal is read again for the missed calls and the last visitor: a call
    /// returned or marked handled elsewhere leaves the count within this time.
    static let journalRefresh: TimeInterval = 5

    /// What the screen shows of the journal without opening it: the missed calls' count and the
    /// idle screen's last visitor (read at start, after each call and every `journalRefresh`).
    func readJournalFacts(now: Date = Date()) {
        journalRead = now
        guard context.options.watch == nil else { return }
        if let missed = JournalBrowser.missedCalls(directory: context.journalDirectory) {
            model.missed.read(unhandled: missed.unhandled, recent: missed.recent)
        }
        guard !context.options.kiosk else { return }
        let journal = JournalBrowser.load(directory: context.journalDirectory, limit: 50)
        // The newest with a picture (the missed calls to return come first in the list).
        if let entry = journal.entries.filter({ $0.picture != nil }).max(by: { $0.id < $1.id }), let picture = entry.picture {
            model.showLastVisitor(entry, picture: picture)
        } else {
            model.lastVisitor = nil
        }
    }

    func readJournalFactsIfDue(now: Date = Date()) {
        if let read = journalRead, now.timeIntervalSince(read) < Self.journalRefresh { return }
        readJournalFacts(now: now)
    }

    /// The kiosk's journal covers the tiles: every panel goes back to small stills until it closes.
    func quietTiles() {
        for panel in context.panels { context.intercom.want(panel: panel, size: KioskView.offScreenStill, live: false) }
        tiledPanels = nil
    }

    func drawPictures(_ kiosk: KioskView.Arrangement?, layout: Layout) {
        guard !model.showHelp, curses.rows >= 8, curses.cols >= 30 else { return }
        if let kiosk {
            let peephole = context.intercom
            let live = KioskView.live(kiosk.tiles.map(\.panel), ringing: Set(model.ringing.compactMap(\.panel)))
            for (index, (panel, tile)) in kiosk.tiles.enumerated() {
                let area = CellArea(column: tile.column, row: tile.row + 1, cols: tile.cols, rows: tile.rows - 1)
                // Ringing panels are always among the live tiles.
                peephole.want(panel: panel, size: pictures.pixelSize(for: area), live: live.contains(panel))
                pictures.draw(slot: 1 + index, area: area, source: source(panel: panel, call: model.calls.first { $0.panel == panel }))
            }
            // A panel paged or filtered away stops its stream; its stills go on, decoded small
            // (a JPEG scaled in its DCT costs little) until it is on a tile again.
            let tiled = Set(kiosk.tiles.map(\.panel))
            if tiled != tiledPanels {
                for panel in context.panels where !tiled.contains(panel) {
                    peephole.want(panel: panel, size: KioskView.offScreenStill, live: false)
                }
                tiledPanels = tiled
            }
            return
        }
        let box = layout.picture
        let area = CellArea(column: box.column, row: box.row, cols: box.cols, rows: box.rows)
        guard let call = model.selectedCall else {
            if let entry = model.journal?.selectedEntry, let path = entry.picture {
                pictures.draw(slot: 0, area: area, source: ("j\(entry.id)", { PictureOutput.picture(at: path) }))
            } else if model.journal == nil, let visitor = model.lastVisitor {
                // Idle: the last visitor's picture fills the space a call's would.
                pictures.draw(slot: 0, area: area, source: ("j\(visitor.entry.id)", { PictureOutput.picture(at: visitor.picture) }))
            }
            return
        }
        // The panel's live stream plays for the call at this size (until the call's own video comes).
        if let panel = call.panel { context.intercom.want(panel: panel, size: pictures.pixelSize(for: area), live: true) }
        pictures.draw(slot: 0, area: area, source: source(panel: call.panel, call: call))
    }

    /// The call's own video once it runs, else the panel's peephole snapshot.
    private func source(panel: String?, call: CallView?) -> PictureOutput.Source? {
        if let call, call.stage == .active, let frame = context.intercom.callVideo(), frame.call == call.id {
            return ("v\(frame.sequence)", frame.image)
        }
        guard let panel, let frame = context.intercom.latest(panel: panel) else { return nil }
        return ("p\(panel)\(frame.sequence)\(frame.fetchedAt.timeIntervalSince1970)", { frame.image })
    }
}
