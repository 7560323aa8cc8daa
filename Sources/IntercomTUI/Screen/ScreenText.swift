import Foundation
import IntercomEngine
import IntercomTerminal

/// The call screen's text through ncurses: the title bar, the call or idle information (or the
/// journal, the kiosk tile titles, the help), the message line and the key bar. The pictures
/// go beside it into the areas `Layout` leaves empty (`PictureOutput`).
struct ScreenText {
    let curses: Curses
    let context: TUIContext

    /// `kiosk`: where the kiosk's tiles and lines go (`kioskArrangement`), nil off the kiosk.
    func draw(_ model: ScreenModel, kiosk: KioskView.Arrangement? = nil) {
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
        } else if let kiosk {
            drawKioskText(model, kiosk)
        } else {
            drawInfo(model, Layout.of(cols: cols, rows: rows), now: now)
        }
        let layout = Layout.of(cols: cols, rows: rows)
        if model.quitAsked {
            curses.bar(layout.messageRow, " a call is in progress or this is a kiosk: quit? y/n", .ringing)
        } else if let typed = model.transferPrompt {
            curses.bar(layout.messageRow, " transfer to (name or sip:URI): \(typed)_", .ringing)
        } else if let typed = model.kiosk.typing {
            curses.bar(layout.messageRow, " filter panels by name: \(typed)_   (\(kiosk?.shown ?? 0) shown; Enter keeps, Esc clears)", .ringing)
        } else if let message = model.message, message.until > now {
            curses.put(layout.messageRow, 1, message.text, message.warn ? .warn : .ok, bold: true)
        } else if let outcome = model.outcome, outcome.until > now {
            curses.put(layout.messageRow, 1, outcome.text, .dim, bold: true)
        }
        curses.bar(layout.keysRow, keyHelp(model, kiosk), .keys)
    }

    private func keyHelp(_ model: ScreenModel, _ kiosk: KioskView.Arrangement?) -> String {
        let call = model.selectedCall
        if call?.stage == .active {
            if model.transferPrompt != nil {
                let names = context.directory.joined(separator: " ")
                return " Enter transfer  Tab complete  (empty Enter: cancel)" + (names.isEmpty ? "" : "  directory: \(names)")
            }
            return " h hang up  o open  t transfer  O 2nd door  g gate  m mute  s speaker  0-9 DTMF  Tab next  ? help"
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
        if let kiosk {
            let filter = model.kiosk.filter.isEmpty ? "" : "filter '\(model.kiosk.filter)' (\(kiosk.shown))  "
            return " \(filter)PgUp/PgDn page \(kiosk.page + 1)/\(kiosk.pages)  / filter  v list  1-9 door  o open  Tab  ? help  Q quit"
        }
        return " o open door  Tab choose door  O 2nd door  g gate  l journal  ? help  q quit"
    }

    private func drawInfo(_ model: ScreenModel, _ layout: Layout, now: Date) {
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
            line("Doors", bold: true)
            for door in model.doors {
                let down = door.source == .panel && model.unreachable.contains(door.owner)
                let mark = door.id == model.chosenDoor ? "›" : " "
                let detail = door.source == .operator
                    ? "\(door.id) — \(door.owner)\(door.address.map { ": \($0)" } ?? "")\(door.blocked.map { " (blocked: \($0))" } ?? "")"
                    : (down ? "— unreachable" : "")
                line("\(mark) \(ScreenModel.title(door)) \(detail)", down ? .warn : (door.blocked != nil ? .dim : .normal),
                     bold: door.id == model.chosenDoor)
            }
            if model.doors.isEmpty { line("  none configured", .dim) }
        }
        line("")
        line("Recent", bold: true)
        for entry in model.recent { line("  \(entry)", .dim) }
    }

    private func drawKioskText(_ model: ScreenModel, _ kiosk: KioskView.Arrangement) {
        let operatorDoors = model.doors.enumerated().filter { $0.element.source == .operator }
        if !operatorDoors.isEmpty {
            // The operators' doors have no picture: one line under the tiles, numbered after the panels.
            let text = operatorDoors.map { "\($0.offset + 1). \(ScreenModel.title($0.element))" }.joined(separator: "   ")
            curses.put(curses.rows - 3, 1, String(text.prefix(max(0, curses.cols - 2))), .title, bold: true)
        }
        for (panel, tile) in kiosk.tiles {
            let (status, color) = Self.kioskStatus(panel, model)
            curses.put(tile.row, tile.column, " \(number(panel)). \(panel) \(status) ".padding(toLength: tile.cols, withPad: " ", startingAt: 0),
                       color, bold: true, reverse: color == .title)
        }
        // The compact list: one line per panel beyond the tiles (or every panel in list mode).
        for line in kiosk.lines {
            let (status, color) = Self.kioskStatus(line.panel, model)
            let text = " \(number(line.panel)). \(line.panel) \(status)"
            curses.put(line.row, line.column, String(text.prefix(line.cols)), color == .title ? .normal : color, bold: !status.isEmpty)
        }
        if kiosk.shown == 0 { curses.put(2, 2, "no panel's name contains '\(model.kiosk.filterShown ?? "")'", .dim) }
    }

    /// A panel's number on the kiosk: its place in the configuration (what the digit keys open).
    private func number(_ panel: String) -> Int { (context.panels.firstIndex(of: panel) ?? 0) + 1 }

    /// A kiosk panel's state word and colour: ringing, in call, unreachable or nothing.
    static func kioskStatus(_ panel: String, _ model: ScreenModel) -> (String, Curses.Color) {
        let call = model.calls.first { $0.panel == panel }
        if let call, call.stage == .ringing { return ("RINGING", .ringing) }
        if call != nil { return ("in call", .ok) }
        if model.unreachable.contains(panel) { return ("unreachable", .warn) }
        return ("", .title)
    }

    /// Where the kiosk's tiles and lines go for this window and model.
    static func kioskArrangement(_ model: ScreenModel, panels: [String], cols: Int, rows: Int) -> KioskView.Arrangement {
        model.kiosk.arrange(panels, ringing: Set(model.ringing.compactMap(\.panel)), cols: cols, rows: kioskTileRows(rows, model))
    }

    /// The rows the kiosk's tiles may use: one fewer when the operators' doors need their line.
    static func kioskTileRows(_ rows: Int, _ model: ScreenModel) -> Int {
        model.doors.contains { $0.source == .operator } ? rows - 1 : rows
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
            "  t          transfer the call: type a [directory] name or a sip: URI, Enter",
            "  Tab        next call in the queue; without a call, choose the door o opens",
            "  l          journal",
            "  Ctrl-L     redraw",
            "  q          quit (asks during a call; kiosk: Q then y)",
            "  PgUp/PgDn  kiosk: previous / next page of tiles (ringing panels on every page)",
            "  /          kiosk: filter the panels by name (Enter keeps it, Esc clears it)",
            "  v          kiosk: tiles / one line per panel (name, state)",
            "",
            "? closes this help",
        ]
        for (i, text) in lines.enumerated() { curses.put(2 + i, 2, text, i == 0 ? .title : .normal, bold: i == 0) }
    }
}
