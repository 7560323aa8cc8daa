import Foundation
import IntercomBase
import IntercomImaging
import IntercomTerminal

/// The TUI thread's loop: keys, the inbox, then the text through ncurses (`ScreenText`, or the
/// watch view's status line) and the pictures written straight to the terminal into the area
/// ncurses leaves empty (`PictureOutput`).
final class TUILoop {
    let context: TUIContext
    let curses: Curses
    private var alerts: Alerts
    let pictures: PictureOutput
    private let text: ScreenText
    var model = ScreenModel()
    var watch: WatchView?
    private var lastBell = Date.distantPast
    /// Rings posted through the terminal's notification escape, with the tag the terminal knows them by.
    private var notified: [CallID: String] = [:]
    private var notices = 0
    /// False once the screen is to close (q, a confirmed quit, the inbox's quit): the loop ends at its next turn.
    var running = true
    private var lastTextHash: Int?
    var lastStatus: String?
    /// The kiosk's panels on tiles (the others were told to keep to small stills).
    var tiledPanels: Set<String>?
    /// The watch line without its counters, and when the line was last written.
    var lastHeadline: String?
    var lastStatusAt = Date.distantPast
    private var closeAt: Date?
    /// Focus reports tell `[notify] terminal = auto` when the resident is elsewhere (`terminalModes`).
    let focusReports: Bool
    private var keyFilter = EscapeFilter()
    /// Where the picture and the text went last turn.
    private var lastLayout: Layout?
    /// When the screen last asked the intercom for its doors (`askDoorsIfDue`).
    var doorsAsked: Date?
    /// When the screen last read the journal's missed calls (`readJournalFactsIfDue`).
    var journalRead: Date?

    init(context: TUIContext) throws(TUIError) {
        self.context = context
        do {
            // watch quits on Ctrl-C as on q, so Ctrl-C is a key there.
            self.curses = try Curses(interruptKeys: context.options.watch == nil)
        } catch {
            throw .notATerminal
        }
        self.alerts = Alerts(bell: context.options.bell, mode: context.options.notify,
                             escape: context.capabilities.notificationEscape.escape)
        focusReports = alerts.mode == .auto && alerts.escape != nil && context.options.watch == nil
        self.pictures = PictureOutput(choice: context.capabilities.choose(override: context.options.graphics),
                                      capabilities: context.capabilities)
        self.text = ScreenText(curses: curses, context: context)
        self.watch = context.options.watch.map { options in
            var view = WatchView(options)
            // Only an attached watch says where it runs: its own engine answers no calls, so
            // "calls are answered only here" would be wrong.
            if case .attached = context.intercom.mode { view.attached = context.intercom.mode.shortTitle }
            return view
        }
        model.kioskMode = context.options.kiosk
        readJournalFacts()
        takeFirstDoors()
    }

    /// Returns how the followed call (`intercom call`) ended, if there is one.
    func run() -> CallEndReason? {
        // Pastes marked as such, so their text is never taken as keys (`EscapeFilter`), and focus reports.
        askTerminalModes()
        defer {
            dropTerminalModes()
            // Leave no picture behind on the normal screen (a kitty image passed through tmux
            // would outlive even the alternate screen).
            pictures.erase()
            curses.erase()
            curses.refresh()
            curses.end()
        }
        // The first screen is drawn at once; later turns wait for a key, a wake or the pace
        // (waiting the idle pace first held the first screen back 120 ms).
        var firstTurn = true
        while running {
            var key = curses.key(waiting: firstTurn ? 0 : pace, wakeFD: context.inbox.wake.readFD)
            firstTurn = false
            context.inbox.wake.drain()
            // Calls are ended by the caller of `run` (`intercom.stop()`), as after q.
            if curses.terminalGone { break }
            // A terminal's late answers and reports are no key presses (they hold O and digits).
            if let code = key, !keyFilter.isKey(code) { key = keyFilter.finishSequence { curses.key(waiting: $0) } }
            if let focused = keyFilter.takeFocus() { alerts.focused = focused }
            // The watch view has no prompt: a paste there is dropped like the keys it is not.
            if let paste = keyFilter.takePaste(), watch == nil { takePaste(paste) }
            // Esc alone is known only once nothing followed it: it cancels a prompt (transfer,
            // door, filter, quit) and closes the help or the journal.
            if keyFilter.takeLoneEscape() { loneEscape() }
            for item in context.inbox.drain() { take(item) }
            if let key {
                if key == Curses.Key.resize {
                    curses.updateSize()
                    pictures.updatePaneOrigin()
                    resetPictures()
                } else if watch != nil {
                    handleWatch(key)
                } else {
                    handle(key)
                }
            }
            guard running else { break }
            if watch != nil {
                drawWatch()
                continue
            }
            alertIfRinging()
            model.tick(now: Date())
            // The door list is the `doors` command's, asked now and then (operators' come late).
            askDoorsIfDue()
            readJournalFactsIfDue()
            // The kiosk's journal (`l`) covers the tiles, as the plain screen's covers its idle text.
            let kiosk = context.options.kiosk && !model.journalShown
                ? ScreenText.kioskArrangement(model, panels: context.panels, cols: curses.cols, rows: curses.rows) : nil
            // Paging past the last page stays on it.
            if let kiosk { model.kiosk.page = kiosk.page }
            let (layout, info) = layoutAndInfo()
            // The text's need moved the picture: the old one is wiped whole (ncurses never drew it).
            if layout != lastLayout {
                if lastLayout != nil { resetPictures() }
                lastLayout = layout
            }
            text.draw(model, kiosk: kiosk, layout: layout, info: info)
            let textHash = curses.contentHash.finalize()
            curses.refresh()
            if textHash != lastTextHash {
                // When its text changes ncurses may move whole lines, the picture on them with it.
                // The rows under the picture are then rewritten whole, and the picture is drawn
                // whole (its area blanked first) instead of as a diff.
                lastTextHash = textHash
                pictures.redrawWhole()
                curses.redrawLines(from: layout.messageRow, count: 1)
                curses.refresh()
            }
            drawPictures(kiosk, layout: layout)
            if let id = context.followed, let reason = model.ended[id] {
                // Long enough to read the outcome line, then back to the shell.
                if closeAt == nil { closeAt = Date().addingTimeInterval(1.5) }
                if let closeAt, Date() >= closeAt { return reason }
            }
        }
        return context.followed.flatMap { model.ended[$0] }
    }

    /// Keys and the inbox wake the loop at once; the timeout only paces pictures and clocks:
    /// 25 turns a second for call video, 10 for peephole snapshots (3 fps), 8 when idle, and
    /// 50 in a call's first 2 s, so its first picture is drawn as soon as it is fetched.
    private var pace: Int {
        if let watch { return watch.pace }
        let video = model.selectedCall?.stage == .active
        let fresh = model.selectedCall.map { Date().timeIntervalSince($0.since) < 2 } ?? false
        // The kiosk's tiles play live sub streams (15–25 fps) without waking the screen per frame.
        if context.options.kiosk { return 40 }
        return fresh ? 20 : video ? 40 : (model.calls.isEmpty ? 120 : 100)
    }

    private func alertIfRinging() {
        // A ring is posted once, when it rings while the terminal is away (or at once with `on`).
        if alerts.posts {
            for call in model.ringing where notified[call.id] == nil {
                notices += 1
                let tag = "intercom-\(ProcessInfo.processInfo.processIdentifier)-\(notices)"
                notified[call.id] = tag
                alerts.notifyIncoming(call.title, tag: tag, writeRaw)
            }
        }
        let ringing = Set(model.ringing.map(\.id))
        for (id, tag) in notified where !ringing.contains(id) {
            notified[id] = nil
            alerts.close(tag: tag, writeRaw)
        }
        if !model.ringing.isEmpty, Date().timeIntervalSince(lastBell) > 3 {
            lastBell = Date()
            alerts.ring(writeRaw)
        }
    }

    func writeRaw(_ text: String) { TerminalWriter.standardOutput.write(text) }
}
