import Foundation
import IntercomBase
import IntercomTerminal

/// The prompts' keys (transfer target, door name, the kiosk's filter) and the journal view's.
/// Esc cancels each prompt once it has stood alone (`ScreenModel.escape`, from `TUILoop.run`).
extension TUILoop {
    /// The longest door name and transfer target a prompt takes.
    static let doorNameLimit = 64
    static let transferTargetLimit = 200

    /// A typed character, if `key` is a printable ASCII one.
    static func printable(_ key: Int32) -> Character? {
        guard key >= 32, key < 127, let scalar = Unicode.Scalar(UInt32(key)) else { return nil }
        return Character(scalar)
    }

    /// The door prompt (`o` without a call when several doors are meant): a name or number
    /// types, Backspace deletes, Tab completes to the first match, Enter opens the one door the
    /// text fits (several or none: the prompt stays and says so).
    func typeDoorName(_ key: Int32) {
        guard var prompt = model.doorPrompt else { return }
        let matches = model.doorsMatching(prompt.typed, door: prompt.door)
        switch key {
        case KeyAction.keyEnter, KeyAction.keyReturn:
            guard matches.count == 1, let door = matches.first else {
                model.fail(matches.isEmpty ? "no door fits '\(prompt.typed)'; type a name from the list or Esc"
                    : "\(matches.count) doors fit '\(prompt.typed)': type more of the name, or its number")
                return
            }
            model.doorPrompt = nil
            context.send(.open(panel: door.id, door: prompt.door, by: .key))
            return
        case Curses.Key.backspace, 127, 8:
            if !prompt.typed.isEmpty { prompt.typed.removeLast() }
        case KeyAction.keyTab:
            if let first = matches.first { prompt.typed = first.id }
        default:
            guard let c = Self.printable(key), prompt.typed.count < Self.doorNameLimit else { return }
            prompt.typed.append(c)
        }
        model.doorPrompt = prompt
    }

    /// The kiosk's filter prompt: printable characters type (the tiles follow at once), Backspace
    /// deletes, Enter keeps the filter; Esc (a lone ESC, see `run`) clears it.
    func typeFilter(_ key: Int32) {
        switch key {
        case KeyAction.keyEnter, KeyAction.keyReturn: model.kiosk.apply(.keep)
        case Curses.Key.backspace, 127, 8: model.kiosk.apply(.backspace)
        default:
            guard let c = Self.printable(key) else { return }
            model.kiosk.apply(.type(c))
        }
        resetPictures()
    }

    /// A paste (`BracketedPaste`) is text, never keys: its printable characters type into the open
    /// prompt (a newline in it presses no Enter); with no prompt open it is set aside, said once.
    func takePaste(_ paste: BracketedPaste) {
        let typed = paste.text.unicodeScalars.filter { $0.isASCII && $0.value >= 32 && $0.value < 127 }.map(Character.init)
        if var prompt = model.doorPrompt {
            prompt.typed += typed.prefix(max(0, Self.doorNameLimit - prompt.typed.count))
            model.doorPrompt = prompt
        } else if let target = model.transferPrompt {
            model.transferPrompt = target + typed.prefix(max(0, Self.transferTargetLimit - target.count))
        } else if model.kiosk.typing != nil {
            for c in typed { model.kiosk.apply(.type(c)) }
            resetPictures()
        } else {
            model.say("paste ignored (\(paste.byteCount) bytes): pasted text goes only into a prompt, never to the keys")
        }
    }

    /// A lone Esc: with no prompt or help open it goes back from an attended transfer's
    /// consultation to the held call; else it closes what is open.
    func loneEscape() {
        if model.promptLine(filterShown: nil) == nil, !model.showHelp, let call = model.consultation?.call {
            model.keyPressed()
            context.send(.attendedTransfer(call, step: .cancel))
        } else if model.escape() {
            resetPictures()
        }
    }

    /// The transfer prompt's keys: printable characters type, Backspace deletes, Enter sends the
    /// target (empty: gives up), Tab completes a `[directory]` name.
    func typeTransferTarget(_ key: Int32) {
        guard var typed = model.transferPrompt else { return }
        switch key {
        case KeyAction.keyEnter, KeyAction.keyReturn:
            let call = model.transferCall
            (model.transferPrompt, model.transferCall) = (nil, nil)
            guard !typed.isEmpty, let id = call else { return }
            context.send(model.transferAttended ? .attendedTransfer(id, step: .consult(target: typed)) : .transfer(id, target: typed))
            return
        case Curses.Key.backspace, 127, 8:
            if !typed.isEmpty { typed.removeLast() }
        case KeyAction.keyTab:
            let matches = context.directory.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
            if let first = matches.first { typed = first }
        default:
            guard let c = Self.printable(key), typed.count < Self.transferTargetLimit else { return }
            typed.append(c)
        }
        model.transferPrompt = typed
    }

    /// Keys of the open journal view; false = not one of them.
    func browseJournal(_ key: Int32) -> Bool {
        switch key {
        case Curses.Key.up, Int32(UInt8(ascii: "k")): model.journal?.move(-1)
        case Curses.Key.down, Int32(UInt8(ascii: "j")): model.journal?.move(1)
        case Curses.Key.pageUp: model.journal?.move(-10)
        case Curses.Key.pageDown: model.journal?.move(10)
        case Curses.Key.home: model.journal?.move(-Int.max / 2)
        case Curses.Key.end: model.journal?.move(Int.max / 2)
        // Esc closes it too, once it has stood alone (`EscapeFilter.takeLoneEscape`, see `run`).
        case Int32(UInt8(ascii: "l")), Int32(UInt8(ascii: "q")): model.journal = nil
        case Int32(UInt8(ascii: "c")): callBackSelected()
        case KeyAction.keyEnter, KeyAction.keyReturn: playSelectedRecording()
        default: return false
        }
        resetPictures()
        return true
    }

    /// `c` in the journal: call the selected missed call's panel back; the engine marks the entry
    /// handled (`by`: key and the user) once the call is placed, and the call screen takes over.
    private func callBackSelected() {
        guard let entry = model.journal?.selectedEntry else { return }
        guard entry.missed, entry.handledBy == nil, let panel = entry.panel else {
            model.say(entry.handledBy.map { "already handled by \($0)" } ?? "c calls back a missed call from a panel", warn: !entry.missed)
            return
        }
        context.send(.callBack(entry: entry.id, by: "key (\(ProcessInfo.processInfo.environment["USER"] ?? "desk"))"))
        model.journal = nil
        model.say("calling \(panel) back (missed at \(LocalTime(entry.time).clock))")
    }
}
