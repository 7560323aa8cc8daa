import Foundation
import IntercomTerminal
import IntercomAttach

/// The call screen's text through ncurses: the title bar, the call or idle information (or the
/// journal, the kiosk tile titles, the help), the message line and the key bar. The pictures
/// go beside it into the areas `Layout` leaves empty (`PictureOutput`).
struct ScreenText {
    let curses: Curses
    let context: TUIContext

    /// `kiosk`: where the kiosk's tiles and lines go (`kioskArrangement`), nil off the kiosk;
    /// `layout` and `info`: where the call or idle text goes and what it says (`TUILoop.layout`).
    func draw(_ model: ScreenModel, kiosk: KioskView.Arrangement? = nil, layout: Layout, info: [InfoLine]) {
        curses.erase()
        let cols = curses.cols, rows = curses.rows
        let now = Date()
        let state = model.titleState(now: now)
        let mode = context.intercom.mode
        curses.bar(0, TextFit.ellipsize(Self.title(label: context.options.label, mode: mode,
                                                   state: state, cols: cols), cols), .title)
        if rows < 8 || cols < 30 {
            curses.put(1, 0, "window too small", .warn)
            return
        }
        if model.showHelp {
            drawHelp(rows: layout.messageRow - 2)
        } else if let kiosk {
            drawKioskText(model, kiosk, doorsRow: layout.messageRow - 1, now: now)
        } else {
            drawInfo(info, layout.info)
        }
        let paging = kiosk.map { ScreenModel.KioskPaging(page: $0.page, pages: $0.pages, shown: $0.shown) }
        if let status = model.statusLine(now: now, filterShown: kiosk?.shown, away: mode.awayLine) {
            // A long message wraps onto the rows the layout gave it (`Layout.of`'s `messageRows`).
            for (i, line) in status.rows(cols: cols).prefix(layout.keysRow - layout.messageRow).enumerated() {
                switch status.style {
                case .prompt: curses.bar(layout.messageRow + i, line, .ringing)
                case .ok: curses.put(layout.messageRow + i, 1, line, .ok, bold: true)
                case .warn: curses.put(layout.messageRow + i, 1, line, .warn, bold: true)
                case .dim: curses.put(layout.messageRow + i, 1, line, .dim, bold: true)
                }
            }
        }
        // The bottom-right cell stays empty (see `Curses.bar`).
        curses.bar(layout.keysRow, model.keyBar(kiosk: paging, directory: context.directory).fit(cols - 1), .keys)
    }

    /// " intercom [MODE] — STATE": where the engine runs. Attached, the daemon's pid (its title whole:
    /// at 80 columns it leaves room for a ring's queue). With its own engine, "[own engine]", and
    /// "— calls are answered only here" after the state when the line has room: the state matters
    /// more, and a narrow screen keeps the words of a wide one (the layout test finds no cut word).
    /// The demo's label stands in for the mode (the demo runs its own engine). While the daemon is
    /// away, "[daemon away N s]" and that calls do not ring here, in place of the state.
    static func title(label: String?, mode: LinkMode, state: String, cols: Int) -> String {
        if let label { return " intercom [\(label)] — \(state)" }
        // Away, the state ("waiting for calls") would promise rings that cannot come.
        if case .away(let away) = mode { return " intercom [\(mode.shortTitle)] — \(away.state)" }
        guard mode == .ownEngine else { return " intercom [\(mode.title)] — \(state)" }
        let line = " intercom [\(mode.shortTitle)] — \(state)"
        let full = line + " — calls are answered only here"
        return full.count <= cols ? full : line
    }

    private func drawInfo(_ lines: [InfoLine], _ box: Layout.Box) {
        for (i, line) in lines.prefix(box.rows).enumerated() {
            let text = line.fitted(box.cols - 1)
            let row = box.row + i, column = box.column + 1
            switch line.style {
            case .normal: curses.put(row, column, text)
            case .heading: curses.put(row, column, text, bold: true)
            case .dim: curses.put(row, column, text, .dim)
            case .warn: curses.put(row, column, text, .warn)
            case .ok: curses.put(row, column, text, .ok, bold: true)
            case .ringing: curses.put(row, column - 1, text, .ringing, bold: true)
            case .selected: curses.put(row, column, text, .title, bold: true, reverse: true)
            }
        }
    }

    private func drawKioskText(_ model: ScreenModel, _ kiosk: KioskView.Arrangement, doorsRow: Int, now: Date) {
        let operatorDoors = model.doors.enumerated().filter { $0.element.source == .operator }
        if !operatorDoors.isEmpty {
            // The operators' doors have no picture: one line under the tiles, numbered after the panels.
            let text = operatorDoors.map {
                ($0.element.id == model.focusedPanel ? ScreenModel.selectedMark : "") + "\($0.offset + 1). \(ScreenModel.title($0.element))"
            }.joined(separator: "   ")
            curses.put(doorsRow, 1, TextFit.ellipsize(text, curses.cols - 2), .title, bold: true)
        }
        // The selected tile (what `o` or `a` acts on) is marked and reversed: no colour needed to see it. It is
        // reversed in the title colour, not its state's: a ringing tile's bar is already a filled colour, so its
        // reverse would look plainer than the ringing tile beside it (its state stays in the words).
        let focus = model.focusedPanel
        for (panel, tile) in kiosk.tiles {
            let (status, color) = Self.kioskStatus(panel, model, now: now)
            let selected = panel == focus
            let mark = selected ? ScreenModel.selectedMark : " "
            curses.put(tile.row, tile.column, TextFit.pad("\(mark)\(number(panel)). \(panel) \(status)", tile.cols),
                       selected ? .title : color, bold: true, reverse: selected)
        }
        // The compact list: one line per panel beyond the tiles (or every panel in list mode).
        for line in kiosk.lines {
            let (status, color) = Self.kioskStatus(line.panel, model, now: now)
            let selected = line.panel == focus
            let text = "\(selected ? ScreenModel.selectedMark : " ")\(number(line.panel)). \(line.panel) \(status)"
            curses.put(line.row, line.column, TextFit.ellipsize(text, line.cols), color == .title ? .normal : color,
                       bold: !status.isEmpty || selected, reverse: selected)
        }
        if kiosk.shown == 0 {
            curses.put(2, 2, TextFit.ellipsize("no panel's name contains '\(model.kiosk.filterShown ?? "")'", curses.cols - 3), .dim)
        }
    }

    /// A panel's number on the kiosk: its place in the configuration (what the digit keys open).
    private func number(_ panel: String) -> Int { (context.panels.firstIndex(of: panel) ?? 0) + 1 }

    /// A kiosk panel's state word and colour: ringing, in call or on hold, unreachable, do not
    /// disturb, or nothing; a picked tile without a call adds the seconds its pick has left.
    static func kioskStatus(_ panel: String, _ model: ScreenModel, now: Date) -> (String, Curses.Color) {
        let call = model.calls.first { $0.panel == panel }
        if let call, call.stage == .ringing { return ("RINGING", .ringing) }
        if let call { return (call.held ? "on hold" : "in call", .ok) }
        let left = panel == model.chosenDoor ? model.pickLeft(now: now).map { " (\($0) s)" } ?? "" : ""
        if model.unreachable.contains(panel) { return ("unreachable" + left, .warn) }
        if let dnd = model.policyWords(panel, now: now) { return (dnd + left, .warn) }
        return (left.trimmingCharacters(in: .whitespaces), .title)
    }

    /// Where the kiosk's tiles and lines go for this window and model.
    static func kioskArrangement(_ model: ScreenModel, panels: [String], cols: Int, rows: Int, now: Date = Date()) -> KioskView.Arrangement {
        model.kiosk.arrange(panels, ringing: Set(model.ringing.compactMap(\.panel)), cols: cols,
                            rows: kioskTileRows(rows, model, messageRows: model.messageRows(cols: cols, now: now)))
    }

    /// The rows the kiosk's tiles may use: one fewer when the operators' doors need their line,
    /// and fewer by the rows a long message wraps onto.
    static func kioskTileRows(_ rows: Int, _ model: ScreenModel, messageRows: Int = 1) -> Int {
        (model.doors.contains { $0.source == .operator } ? rows - 1 : rows) - max(0, min(messageRows, StatusLine.maxRows) - 1)
    }

    /// The keys, each with what it does, wrapped to the window (`rows`: the rows it may use).
    private func drawHelp(rows: Int) {
        let keyColumn = 13
        curses.put(2, 2, "Keys", .title, bold: true)
        var row = 3
        for (keys, text) in Self.helpLines {
            for (i, line) in TextFit.wrap(text, curses.cols - 3 - keyColumn).enumerated() {
                guard row < 2 + rows else {
                    curses.put(2 + rows - 1, 2, TextFit.ellipsize("(more keys than rows: make the window taller)", curses.cols - 3)
                        .padding(toLength: max(0, curses.cols - 3), withPad: " ", startingAt: 0), .dim)
                    return
                }
                curses.put(row, 2, (i == 0 ? keys : "").padding(toLength: keyColumn, withPad: " ", startingAt: 0) + line)
                row += 1
            }
        }
    }

    /// The help screen: each key and what it does (docs/RESIDENT.md's key table says the same).
    static let helpLines: [(String, String)] = [
        ("a, Enter", "answer the selected call (the key bar names it)"),
        ("d", "decline the ringing call"),
        ("h", "hang up"),
        ("Tab", "next call in arrival order; without a call, the next door"),
        ("o / O", "open the main / 2nd door: the call's, else the chosen (asks)"),
        ("g", "open the gate/light output"),
        ("0-9 * #", "in a call: DTMF; kiosk: pick a panel for 15 s (o opens it)"),
        ("t", "transfer: type a [directory] name or a sip: URI, Enter"),
        ("T", "attended transfer: hold, call the target; T again hands over"),
        ("Esc", "cancel a prompt; close help or journal; back from a consultation"),
        ("s / m", "speaker on/off / mute the microphone"),
        ("l", "journal, missed calls first; in it, c calls one back"),
        ("F / W", "the operator flat's settings / white rabbit to the next minutes"),
        ("Ctrl-L", "redraw"),
        ("q", "quit (asks in a call; kiosk: Q then y)"),
        ("PgUp/PgDn", "kiosk: previous / next page of tiles"),
        ("/", "kiosk: filter panels by name (Enter keeps, Esc clears)"),
        ("v", "kiosk: tiles / one line per panel"),
        ("?", "close this help"),
    ]
}
