import Foundation
import IntercomEngine
import IntercomTerminal

/// The call screen's text through ncurses: the title bar, the call or idle information (or the
/// journal, the kiosk tile titles, the help), the message line and the key bar. The pictures
/// go beside it into the areas `Layout` leaves empty (`PictureOutput`).
struct ScreenText {
    let curses: Curses
    let context: TUIContext

    func draw(_ model: ScreenModel) {
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
            drawKioskText(model)
        } else {
            drawInfo(model, Layout.of(cols: cols, rows: rows), now: now)
        }
        let layout = Layout.of(cols: cols, rows: rows)
        if model.quitAsked {
            curses.bar(layout.messageRow, " a call is in progress or this is a kiosk: quit? y/n", .ringing)
        } else if let typed = model.transferPrompt {
            curses.bar(layout.messageRow, " transfer to (name or sip:URI): \(typed)_", .ringing)
        } else if let message = model.message, message.until > now {
            curses.put(layout.messageRow, 1, message.text, message.warn ? .warn : .ok, bold: true)
        } else if let outcome = model.outcome, outcome.until > now {
            curses.put(layout.messageRow, 1, outcome.text, .dim, bold: true)
        }
        curses.bar(layout.keysRow, keyHelp(model), .keys)
    }

    private func keyHelp(_ model: ScreenModel) -> String {
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
        return context.options.kiosk
            ? " 1-9 open door N  Tab choose  o open  ? help  Q quit"
            : " o open door  Tab choose door  O 2nd door  g gate  l journal  ? help  q quit"
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

    private func drawKioskText(_ model: ScreenModel) {
        let tiles = Layout.tiles(count: context.panels.count, cols: curses.cols, rows: Self.kioskTileRows(curses.rows, model))
        let operatorDoors = model.doors.enumerated().filter { $0.element.source == .operator }
        if !operatorDoors.isEmpty {
            // The operators' doors have no picture: one line under the tiles, numbered after the panels.
            let text = operatorDoors.map { "\($0.offset + 1). \(ScreenModel.title($0.element))" }.joined(separator: "   ")
            curses.put(curses.rows - 3, 1, String(text.prefix(max(0, curses.cols - 2))), .title, bold: true)
        }
        for (index, panel) in Self.kioskOrder(context.panels, model).enumerated() where index < tiles.count {
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

    /// The rows the kiosk's tiles may use: one fewer when the operators' doors need their line.
    static func kioskTileRows(_ rows: Int, _ model: ScreenModel) -> Int {
        model.doors.contains { $0.source == .operator } ? rows - 1 : rows
    }

    /// Kiosk: ringing panels jump to the front.
    static func kioskOrder(_ panels: [String], _ model: ScreenModel) -> [String] {
        let ringing = Set(model.ringing.compactMap(\.panel))
        return panels.filter { ringing.contains($0) } + panels.filter { !ringing.contains($0) }
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
            "",
            "? closes this help",
        ]
        for (i, text) in lines.enumerated() { curses.put(2 + i, 2, text, i == 0 ? .title : .normal, bold: i == 0) }
    }
}
