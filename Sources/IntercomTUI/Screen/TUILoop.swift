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
    private var watch: WatchView?
    private var lastBell = Date.distantPast
    /// Rings posted through the terminal's notification escape, with the tag the terminal knows them by.
    private var notified: [CallID: String] = [:]
    private var notices = 0
    /// False once the screen closes (q, a signal, the followed call's end): the loop ends its turn.
    var running = true
    private var lastTextHash: Int?
    private var lastStatus: String?
    /// The kiosk's panels on tiles (the others were told to keep to small stills).
    private var tiledPanels: Set<String>?
    /// The watch line without its counters, and when the line was last written.
    private var lastHeadline: String?
    private var lastStatusAt = Date.distantPast
    private var closeAt: Date?
    private var keyFilter = EscapeFilter()
    /// Where the picture and the text went last turn.
    private var lastLayout: Layout?
    /// When the screen last asked the intercom for its doors (`askDoorsIfDue`).
    var doorsAsked: Date?

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
        loadLastVisitor()
        takeFirstDoors()
    }

    /// Returns how the followed call (`intercom call`) ended, if there is one.
    func run() -> CallEndReason? {
        // Focus reports tell `[notify] terminal = auto` when the resident is elsewhere.
        let focusReports = alerts.mode == .auto && alerts.escape != nil && watch == nil
        if focusReports { writeRaw(Alerts.reportFocus) }
        defer {
            if focusReports { writeRaw(Alerts.stopFocusReports) }
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
            if let code = key, !keyFilter.isKey(code) { key = nil }
            if let focused = keyFilter.takeFocus() { alerts.focused = focused }
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
            let kiosk = context.options.kiosk
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
        // An ESC waits to be told from a sequence's start (`EscapeFilter.loneEscape`): look again soon.
        if keyFilter.state == .escape { return 60 }
        let video = model.selectedCall?.stage == .active
        let fresh = model.selectedCall.map { Date().timeIntervalSince($0.since) < 2 } ?? false
        // The kiosk's tiles play live sub streams (15–25 fps) without waking the screen per frame.
        if context.options.kiosk { return 40 }
        return fresh ? 20 : video ? 40 : (model.calls.isEmpty ? 120 : 100)
    }

    // MARK: - Input

    private func handleWatch(_ key: Int32) {
        if WatchView.quits(key) {
            running = false
        } else if key == KeyAction.keyCtrlL {
            resetPictures()
        }
    }

    private func handle(_ key: Int32) {
        // A failure stays until a key is pressed: this one (which goes on to do what it does).
        model.keyPressed()
        if model.doorPrompt != nil {
            typeDoorName(key)
            return
        }
        if model.transferPrompt != nil {
            typeTransferTarget(key)
            return
        }
        if model.kiosk.typing != nil {
            typeFilter(key)
            return
        }
        if model.journal != nil, model.selectedCall == nil, browseJournal(key) { return }
        let inCall = model.selectedCall?.stage == .active
        guard let action = KeyAction.of(key: key, inCall: inCall, ringing: !model.ringing.isEmpty,
                                        quitAsked: model.quitAsked, kiosk: context.options.kiosk,
                                        dialing: model.selectedCall?.stage == .dialing) else { return }
        switch action {
        case .command(.open(nil, let door, let by)):
            switch model.openChoice(door: door) {
            case .open(let panel): context.send(.open(panel: panel, door: door, by: by))
            case .ask: model.doorPrompt = (door, "")
            }
        case .command(.dtmf(nil, let digits)):
            guard let call = model.selectedCall else { return }
            context.send(.dtmf(call.id, digits: digits))
            model.say("DTMF \(digits) sent to \(call.title)")
        case .command(let command):
            context.send(targeted(command))
        case .nextCall:
            // Without a call, Tab chooses the door `o` opens.
            if model.calls.isEmpty { model.chooseNextDoor() } else { model.selectNext() }
            resetPictures()
        case .help:
            model.showHelp.toggle()
            resetPictures()
        case .journal:
            guard model.selectedCall == nil else {
                model.say("the journal opens when no call is on the screen")
                return
            }
            model.journal = model.journal == nil ? JournalBrowser.load(directory: context.journalDirectory) : nil
            resetPictures()
        case .quit:
            if model.calls.isEmpty && !context.options.kiosk {
                running = false
            } else {
                model.quitAsked = true
            }
        case .confirmQuit(let yes):
            model.quitAsked = false
            if yes { running = false }
        case .redraw:
            resetPictures()
        case .selectDoor(let index):
            model.selectDoor(index)
        case .transfer, .consult:
            if action == .consult, let consult = model.consultation, consult.call == model.selectedCall?.id {
                guard consult.answered else { return model.say("\(consult.target) has not answered yet (Esc: back to the call)") }
                context.send(.attendedTransfer(consult.call, step: .complete))
                return
            }
            guard model.consultation == nil else { return model.say("a transfer is under way: T completes it, Esc cancels it") }
            model.transferPrompt = ""
            model.transferCall = model.selectedCall?.id
            model.transferAttended = action == .consult
        case .kiosk(let key):
            model.kiosk.apply(key)
            resetPictures()
        }
    }

    /// Commands without a call id act on the call the screen shows.
    private func targeted(_ command: IntercomCommand) -> IntercomCommand {
        let id = model.selectedCall?.id
        switch command {
        case .answer(nil, let by): return .answer(model.selectedCall?.stage == .ringing ? id : nil, by: by)
        case .decline(nil): return .decline(model.selectedCall?.stage == .ringing ? id : nil)
        case .hangup(nil): return .hangup(id)
        default: return command
        }
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

    // MARK: - Pictures

    func resetPictures() {
        pictures.reset()
        curses.invalidate()
        // ncurses repaints everything at its next refresh: the watch line must be in it.
        lastStatus = nil
    }

    /// Where the text and the picture go this turn, and the text beside the picture: the two
    /// share the width by what the text needs.
    private func layoutAndInfo() -> (Layout, [InfoLine]) {
        let height = Layout.of(cols: curses.cols, rows: curses.rows).info.rows
        let info = context.options.kiosk || model.showHelp ? [] : model.infoLines(now: Date(), height: height)
        return (Layout.of(cols: curses.cols, rows: curses.rows, infoNeed: ScreenModel.need(info)), info)
    }

    /// The newest journal entry with a picture, for the idle screen (read at start and after each call).
    func loadLastVisitor() {
        guard !context.options.kiosk, context.options.watch == nil else { return }
        let journal = JournalBrowser.load(directory: context.journalDirectory, limit: 50)
        model.lastVisitor = journal.entries.first { $0.picture != nil }.flatMap { entry in
            entry.picture.map { (entry.id, $0, JournalBrowser.line(entry)) }
        }
    }

    private func drawPictures(_ kiosk: KioskView.Arrangement?, layout: Layout) {
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
                pictures.draw(slot: 0, area: area, source: ("j\(visitor.id)", { PictureOutput.picture(at: visitor.picture) }))
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

    /// The watch view: its status line on the last row, the panel's newest picture above it (a
    /// live frame scaled by the decoder to the area's pixels, else a snapshot). Only the last row
    /// holds text, so ncurses never touches the picture's rows.
    private func drawWatch() {
        guard var watch else { return }
        let peephole = context.intercom
        let area = WatchView.area(cols: curses.cols, rows: curses.rows)
        peephole.want(panel: watch.panel, size: pictures.pixelSize(for: area), live: true)
        watch.take(peephole.latest(panel: watch.panel))
        defer { self.watch = watch }
        let now = Date()
        let problem = peephole.problem(panel: watch.panel), note = peephole.streamNote(panel: watch.panel)
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

    private func writeRaw(_ text: String) { TerminalWriter.standardOutput.write(text) }
}
