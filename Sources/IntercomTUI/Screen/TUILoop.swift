import CNcurses
import Foundation
import IntercomEngine

/// The TUI thread's loop: keys, the inbox, then the text through ncurses and the pictures
/// written straight to the terminal into the area ncurses leaves empty.
final class TUILoop {
    private let context: TUIContext
    private let curses: Curses
    private let alerts: Alerts
    private var model = ScreenModel()
    /// By slot: 0 is the main picture, 1… the kiosk tiles; slot + 1 is the kitty image id.
    private var renderers: [Int: ImageRenderer] = [:]
    private var drawn: [Int: String] = [:]
    private var lastDrawn: [Int: ContinuousClock.Instant] = [:]
    static let pixelFrameInterval = Duration.milliseconds(100)
    private let choice: GraphicsChoice
    /// Inside tmux with a pixel mode forced: where our pane sits (asked again on resize).
    private var paneOrigin = PaneOrigin.zero
    private var lastBell = Date.distantPast
    private var notified: Set<CallID> = []
    private var running = true
    private var lastTextHash: Int?
    private var closeAt: Date?
    private var keyFilter = EscapeFilter()

    init(context: TUIContext) throws(TUIError) {
        self.context = context
        self.curses = try Curses()
        self.alerts = Alerts(bell: context.options.bell, notify: context.options.notify,
                             environment: context.capabilities.environment)
        self.choice = context.capabilities.choose(override: context.options.graphics)
        updatePaneOrigin()
    }

    /// Returns how the followed call (`intercom call`) ended, if there is one.
    func run() -> CallEndReason? {
        defer {
            // Leave no picture behind on the normal screen (a kitty image passed through tmux
            // would outlive even the alternate screen).
            erasePictures()
            curses.erase()
            curses.refresh()
            curses.end()
        }
        while running {
            // Keys and the inbox wake the loop at once; the timeout only paces pictures and clocks:
            // 25 turns a second for call video, 10 for peephole snapshots (3 fps), 8 when idle, and
            // 50 in a call's first 2 s, so its first picture is drawn as soon as it is fetched.
            let video = model.selectedCall?.stage == .active
            let fresh = model.selectedCall.map { Date().timeIntervalSince($0.since) < 2 } ?? false
            let pace: Int32 = fresh ? 20 : video ? 40 : (model.calls.isEmpty && !context.options.kiosk ? 120 : 100)
            var key = curses.key(waiting: pace, wake: context.inbox.wake)
            // Calls are ended by the caller of `run` (`intercom.stop()`), as after q.
            if curses.terminalGone { break }
            // A terminal's late answers and reports are no key presses (they hold O and digits).
            if let code = key, !keyFilter.isKey(code) { key = nil }
            for item in context.inbox.drain() { take(item) }
            if let key {
                if key == KEY_RESIZE {
                    curses.updateSize()
                    updatePaneOrigin()
                    resetPictures()
                } else {
                    handle(key)
                }
            }
            alertIfRinging()
            drawText()
            let textHash = curses.contentHash.finalize()
            curses.refresh()
            if textHash != lastTextHash {
                // When its text changes ncurses may move whole lines, the picture on them with it.
                // The rows under the picture are then rewritten whole, and the picture is drawn
                // whole (its area blanked first) instead of as a diff.
                lastTextHash = textHash
                for renderer in renderers.values { renderer.reset() }
                drawn.removeAll()
                let layout = Layout.of(cols: curses.cols, rows: curses.rows)
                curses.redrawLines(from: layout.messageRow, count: 1)
                curses.refresh()
            }
            drawPictures()
            if let id = context.followed, let reason = model.ended[id] {
                // Long enough to read the outcome line, then back to the shell.
                if closeAt == nil { closeAt = Date().addingTimeInterval(1.5) }
                if let closeAt, Date() >= closeAt { return reason }
            }
        }
        return context.followed.flatMap { model.ended[$0] }
    }

    // MARK: - Input

    private func take(_ item: Inbox.Item) {
        switch item {
        case .event(let event):
            model.apply(event)
            if case .callEnded = event.kind {
                resetPictures()
                if model.journal != nil { model.journal = JournalBrowser.load(directory: context.journalDirectory) }
            }
        case .message(let text, let warn):
            model.say(text, warn: warn)
        }
    }

    private func handle(_ key: Int32) {
        if model.journal != nil, model.selectedCall == nil, browseJournal(key) { return }
        let inCall = model.selectedCall?.stage == .active
        guard let action = KeyAction.of(key: key, inCall: inCall, ringing: !model.ringing.isEmpty,
                                        quitAsked: model.quitAsked, kiosk: context.options.kiosk,
                                        dialing: model.selectedCall?.stage == .dialing) else { return }
        switch action {
        case .command(let command):
            context.send(targeted(command))
        case .nextCall:
            model.selectNext()
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
        case .openPanel(let index):
            guard index < context.panels.count else { return }
            context.send(.open(panel: context.panels[index], door: .main, by: .key))
        }
    }

    /// Keys of the open journal view; false = not one of them.
    private func browseJournal(_ key: Int32) -> Bool {
        switch key {
        case KEY_UP, Int32(UInt8(ascii: "k")): model.journal?.move(-1)
        case KEY_DOWN, Int32(UInt8(ascii: "j")): model.journal?.move(1)
        case KEY_PPAGE: model.journal?.move(-10)
        case KEY_NPAGE: model.journal?.move(10)
        case KEY_HOME: model.journal?.move(-Int.max / 2)
        case KEY_END: model.journal?.move(Int.max / 2)
        // Not Esc: a lone ESC cannot be told from the start of a terminal's report (`EscapeFilter`).
        case Int32(UInt8(ascii: "l")), Int32(UInt8(ascii: "q")): model.journal = nil
        default: return false
        }
        resetPictures()
        return true
    }

    /// Commands without a call id act on the call the screen shows.
    private func targeted(_ command: IntercomCommand) -> IntercomCommand {
        let id = model.selectedCall?.id
        switch command {
        case .answer(nil): return .answer(model.selectedCall?.stage == .ringing ? id : nil)
        case .decline(nil): return .decline(model.selectedCall?.stage == .ringing ? id : nil)
        case .hangup(nil): return .hangup(id)
        case .dtmf(nil, let digits): return .dtmf(id, digits: digits)
        case .open(nil, let door, let by): return .open(panel: model.selectedCall?.panel, door: door, by: by)
        default: return command
        }
    }

    private func alertIfRinging() {
        for call in model.ringing where !notified.contains(call.id) {
            notified.insert(call.id)
            alerts.notifyIncoming(call.title, writeRaw)
        }
        if !model.ringing.isEmpty, Date().timeIntervalSince(lastBell) > 3 {
            lastBell = Date()
            alerts.ring(writeRaw)
        }
    }

    // MARK: - Text

    private func drawText() {
        curses.erase()
        let cols = curses.cols, rows = curses.rows
        let now = Date()
        let label = context.options.label.map { " [\($0)]" } ?? ""
        let state = model.calls.isEmpty ? "waiting for calls" : "\(model.calls.count) call(s)"
        curses.bar(0, " intercom\(label) — \(state)\(model.registration.map { " — \($0)" } ?? "")", .title)
        if rows < 8 || cols < 30 {
            curses.put(1, 0, "window too small", .warn)
            return
        }
        if model.showHelp {
            drawHelp()
        } else if context.options.kiosk {
            drawKioskText()
        } else {
            drawInfo(Layout.of(cols: cols, rows: rows), now: now)
        }
        let layout = Layout.of(cols: cols, rows: rows)
        if model.quitAsked {
            curses.bar(layout.messageRow, " a call is in progress or this is a kiosk: quit? y/n", .ringing)
        } else if let message = model.message, message.until > now {
            curses.put(layout.messageRow, 1, message.text, message.warn ? .warn : .ok, bold: true)
        } else if let outcome = model.outcome, outcome.until > now {
            curses.put(layout.messageRow, 1, outcome.text, .dim, bold: true)
        }
        curses.bar(layout.keysRow, keyHelp, .keys)
    }

    private var keyHelp: String {
        let call = model.selectedCall
        if call?.stage == .active {
            return " h hang up  o open  O 2nd door  g gate  m mute  s speaker  0-9 DTMF  Tab next  ? help"
        }
        if call == nil, model.journal != nil {
            return " ↑/↓ j/k choose  PgUp/PgDn  l/q close  o open door  ? help"
        }
        if call?.stage == .dialing {
            return " h hang up  o open door  ? help"
        }
        if call?.stage == .ringing {
            return " a/Enter answer  d decline  o open without talking  O 2nd door  Tab next  ? help"
        }
        return context.options.kiosk
            ? " 1-9 open door of panel N  o open  ? help  Q quit"
            : " o open door  O 2nd door  g gate  l journal  ? help  q quit"
    }

    private func drawInfo(_ layout: Layout, now: Date) {
        let box = layout.info
        var row = box.row
        func line(_ text: String, _ color: Curses.Color = .normal, bold: Bool = false) {
            guard row < box.row + box.rows else { return }
            curses.put(row, box.column + 1, String(text.prefix(box.cols - 2)), color, bold: bold)
            row += 1
        }
        if let call = model.selectedCall {
            let seconds = now.timeIntervalSince(call.since)
            if call.stage == .ringing {
                curses.put(row, box.column, " \(call.title) is calling ".uppercased(), .ringing, bold: true)
                row += 1
                line("ringing \(ScreenModel.duration(seconds))")
            } else if call.stage == .dialing {
                line("Calling \(call.title)…", .ok, bold: true)
                line(ScreenModel.duration(seconds))
            } else {
                line("In call with \(call.title)", .ok, bold: true)
                line("\(ScreenModel.duration(seconds))  mic \(model.muted ? "muted" : "on")  speaker \(model.speaker ? "on" : "off")")
            }
            line(call.from, .dim)
            if model.calls.count > 1 {
                line("")
                line("queue:", bold: true)
                for other in model.calls where other.id != call.id {
                    line("  \(other.title) — \(other.stage == .ringing ? "ringing" : "in call")")
                }
            }
        } else if let journal = model.journal {
            line("Journal", bold: true)
            if let problem = journal.problem { line(problem, .dim) }
            for (entry, selected) in journal.window(height: box.row + box.rows - row) {
                guard row < box.row + box.rows else { break }
                let text = String(JournalBrowser.line(entry).prefix(box.cols - 2))
                curses.put(row, box.column + 1, text, selected ? .title : .normal, bold: selected, reverse: selected)
                row += 1
            }
            return
        } else {
            line("Panels", bold: true)
            for panel in context.panels {
                let down = model.unreachable.contains(panel)
                line("  \(panel) \(down ? "— unreachable" : "")", down ? .warn : .normal)
            }
            if context.panels.isEmpty { line("  none configured", .dim) }
        }
        line("")
        line("Recent", bold: true)
        for entry in model.recent { line("  \(entry)", .dim) }
    }

    private func drawKioskText() {
        let tiles = Layout.tiles(count: context.panels.count, cols: curses.cols, rows: curses.rows)
        for (index, panel) in orderedPanels.enumerated() where index < tiles.count {
            let tile = tiles[index]
            let number = (context.panels.firstIndex(of: panel) ?? index) + 1
            let call = model.calls.first { $0.panel == panel }
            let status: String
            let color: Curses.Color
            if let call, call.stage == .ringing {
                status = "RINGING"
                color = .ringing
            } else if call != nil {
                status = "in call"
                color = .ok
            } else if model.unreachable.contains(panel) {
                status = "unreachable"
                color = .warn
            } else {
                status = ""
                color = .title
            }
            curses.put(tile.row, tile.column, " \(number). \(panel) \(status) ".padding(toLength: tile.cols, withPad: " ", startingAt: 0),
                       color, bold: true, reverse: color == .title)
        }
    }

    /// Kiosk: ringing panels jump to the front.
    private var orderedPanels: [String] {
        let ringing = Set(model.ringing.compactMap(\.panel))
        return context.panels.filter { ringing.contains($0) } + context.panels.filter { !ringing.contains($0) }
    }

    private func drawHelp() {
        let lines = [
            "Keys",
            "  a, Enter   answer the ringing call",
            "  d          decline it",
            "  h          hang up",
            "  o / O      open the main / second door (while ringing: answer silently, open, hang up)",
            "  g          open the gate/light output",
            "  s          speaker toggle ([audio] playback ↔ speaker)",
            "  m          mute the microphone",
            "  0-9 * #    DTMF in a call",
            "  Tab        next call in the queue",
            "  l          journal",
            "  Ctrl-L     redraw",
            "  q          quit (asks during a call; kiosk: Q then y)",
            "",
            "? closes this help",
        ]
        for (i, text) in lines.enumerated() { curses.put(2 + i, 2, text, i == 0 ? .title : .normal, bold: i == 0) }
    }

    // MARK: - Pictures

    private func resetPictures() {
        erasePictures()
        curses.invalidate()
        renderers.removeAll()
        drawn.removeAll()
        lastDrawn.removeAll()
    }

    /// Kitty images sit above the text: clearing the screen does not remove them inside tmux,
    /// so a call's picture would stay after it ended.
    private func erasePictures() {
        for renderer in renderers.values { writeBytes(renderer.eraseBytes()) }
    }

    private func updatePaneOrigin() {
        guard choice.tmuxPassthrough else { return }
        paneOrigin = TmuxPane.origin(environment: context.capabilities.environment)
    }

    private func drawPictures() {
        guard !model.showHelp, curses.rows >= 8, curses.cols >= 30 else { return }
        if context.options.kiosk {
            let tiles = Layout.tiles(count: context.panels.count, cols: curses.cols, rows: curses.rows)
            for (index, panel) in orderedPanels.enumerated() where index < tiles.count {
                let tile = tiles[index]
                let area = CellArea(column: tile.column, row: tile.row + 1, cols: tile.cols, rows: tile.rows - 1)
                drawPicture(slot: 1 + index, area: area, source: source(panel: panel, call: model.calls.first { $0.panel == panel }))
            }
            return
        }
        let box = Layout.of(cols: curses.cols, rows: curses.rows).picture
        guard let call = model.selectedCall else {
            if let entry = model.journal?.selectedEntry, let path = entry.picture {
                drawPicture(slot: 0, area: CellArea(column: box.column, row: box.row, cols: box.cols, rows: box.rows),
                            source: ("j\(entry.id)", { Self.picture(at: path) }))
            }
            return
        }
        drawPicture(slot: 0, area: CellArea(column: box.column, row: box.row, cols: box.cols, rows: box.rows),
                    source: source(panel: call.panel, call: call))
    }

    /// The call's own video once it runs, else the panel's peephole snapshot.
    private func source(panel: String?, call: CallView?) -> (id: String, image: () -> RGBImage?)? {
        if let call, call.stage == .active, let frame = context.video?.latest, frame.call == call.id {
            return ("v\(frame.sequence)", { RGBImage(width: frame.width, height: frame.height, pixels: frame.rgb()) })
        }
        guard let panel, let frame = context.intercom.peephole.latest(panel: panel) else { return nil }
        return ("p\(panel)\(frame.sequence)\(frame.fetchedAt.timeIntervalSince1970)", { frame.image })
    }

    private func drawPicture(slot: Int, area: CellArea, source: (id: String, image: () -> RGBImage?)?) {
        guard let source, drawn[slot] != source.id else { return }
        let whole = drawn[slot] == nil
        // A pixel picture is a whole image each time (about 1 MB of kitty data, or a 20 ms sixel
        // encode the terminal then decodes): a panel's 25 fps call video would swamp the terminal
        // and any SSH link, so in pixel modes video follows at most 10 frames a second.
        let now = ContinuousClock.now
        if choice.mode.isPixel, !whole, let last = lastDrawn[slot], last.duration(to: now) < Self.pixelFrameInterval { return }
        guard let image = source.image() else { return }
        drawn[slot] = source.id
        lastDrawn[slot] = now
        let renderer = renderers[slot] ?? ImageRenderer(choice: choice, capabilities: context.capabilities, imageID: slot + 1)
        renderer.paneOrigin = paneOrigin
        renderers[slot] = renderer
        let frame = renderer.render(image: image, into: area, cellPixels: context.capabilities.cellPixels)
        guard !frame.bytes.isEmpty else { return }
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
        writeBytes(out)
    }

    /// A journal picture from disk; nil when it was pruned or is unreadable.
    private static func picture(at path: String) -> RGBImage? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JPEG.decode(data)
    }

    private func writeRaw(_ text: String) { writeBytes(Array(text.utf8)) }

    private func writeBytes(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if n <= 0 { if errno == EINTR || errno == EAGAIN { continue } else { return } }
            offset += n
        }
    }
}
