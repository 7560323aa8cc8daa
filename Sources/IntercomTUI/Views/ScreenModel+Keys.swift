import Foundation
import IntercomBase

/// What the keys act on, said on the screen: the key bar names the call or door (`a answer
/// panel-02`), the queue line lists the calls in the order they came with the selected one
/// marked, and the prompts say how to leave them (Esc).
extension ScreenModel {
    /// The kiosk's page and filter, for its key bar.
    struct KioskPaging: Equatable {
        var page: Int, pages: Int, shown: Int
    }

    /// Marks the selected call or tile in plain text too (it is also drawn reversed and bold),
    /// so it shows in 16 colours, without colour and in a screenshot.
    static let selectedMark = "▶"

    /// What `o` would open, for the key bar: a name (with the pick's countdown), "…" when it
    /// would ask, or what to press first.
    private func openLabel(_ door: Door, now: Date) -> String {
        switch openChoice(door: door) {
        case .open(let id):
            (doorName(id) ?? "door") + (id != nil && id == chosenDoor ? pickLeft(now: now).map { " (\($0) s)" } ?? "" : "")
        case .ask: "door…"
        case .pickFirst: "door: pick 1-\(doors.count) first"
        }
    }

    /// The key bar for this state, with the missed calls' count (never dropped). `directory`:
    /// the `[directory]` names (transfer prompt).
    func keyBar(kiosk: KioskPaging?, directory: [String], now: Date = Date()) -> KeyBar {
        var bar = keys(kiosk: kiosk, directory: directory, now: now)
        if let missed = missedItem { bar.items.insert(missed, at: max(0, bar.items.count - 1)) }
        // The kiosk has no idle text to say it: a mute set with no call holds for the next one.
        if kioskMode, muted, !calls.contains(where: { $0.stage == .active }) {
            bar.items.insert(KeyBar.Item("m: next call starts muted", 2), at: 0)
        }
        return bar
    }

    private func keys(kiosk: KioskPaging?, directory: [String], now: Date) -> KeyBar {
        typealias I = KeyBar.Item
        if quitAsked { return KeyBar([I("y quit", 1), I("n/Esc stay", 1), KeyBar.help]) }
        if transferPrompt != nil {
            let names = directory.joined(separator: " ")
            return KeyBar([I("Enter transfer", 1), I("Esc cancel", 1), I("Tab complete", 2)]
                          + (names.isEmpty ? [] : [I("directory: \(names)", 3)]) + [KeyBar.help])
        }
        if doorPrompt != nil {
            return KeyBar([I("Enter open", 1), I("Esc cancel", 1), I("Tab complete", 2), KeyBar.help])
        }
        if self.kiosk.typing != nil {
            return KeyBar([I("Enter keep filter", 1), I("Esc clear", 1), KeyBar.help])
        }
        // A tile a digit marked is what the keys act on, its call or none (`ringTarget`).
        let call = doorFocus ? markedCall : selectedCall
        let next = doorFocus && !calls.isEmpty ? [I("Tab back to the calls (\(calls.count))", 2)]
            : calls.count > 1 ? [I("Tab next call (\(calls.count))", 2)] : []
        if let call, call.stage == .active, let consult = consultation, consult.call == call.id {
            return KeyBar([I(consult.answered ? "T transfer to \(consult.target)" : "calling \(consult.target)…", 1),
                           I("Esc back to \(call.title)", 1), I("h hang up \(call.title)", 3)] + next + [KeyBar.help])
        }
        if let call, call.stage == .active {
            return KeyBar([I("h hang up \(call.title)", 1), I("o open", 2)] + next + [
                I("0-9 DTMF", 3), I("t transfer", 4), I("T consult", 4), I("m mute", 5), I("s speaker", 5), I("O 2nd door", 6), I("g gate", 7),
                KeyBar.help])
        }
        if let call, call.stage == .dialing {
            return KeyBar([I("h hang up \(call.title)", 1), I("o open", 2), KeyBar.help])
        }
        if call == nil, journal != nil {
            let missed = journal?.selectedEntry.map { $0.missed && $0.handledBy == nil && $0.panel != nil } ?? false
            let recorded = journal?.selectedEntry.map { JournalRecording.of($0).command != nil } ?? false
            return KeyBar([I("↑/↓ choose", 1), I("l/q/Esc close", 1)] + (missed ? [I("c call back", 1)] : [])
                + (recorded ? [I("Enter recording", 1)] : []) + [
                I("PgUp/PgDn", 3), I("o open \(openLabel(.main, now: now))", 2), KeyBar.help])
        }
        var items: [I] = []
        if let call, call.stage == .ringing {
            items = [I("a answer \(call.title)", 1), I("d decline", 2)] + next
        } else if doorFocus {
            items = next
        }
        if let kiosk {
            let filter = self.kiosk.filter.isEmpty ? [] : [I("filter '\(self.kiosk.filter)' (\(kiosk.shown))", 3)]
            items += [I("1-9 select", 2), I("o open \(openLabel(.main, now: now))", 2)] + filter
                + [I("/ filter", 4), I("v list", 5), I("PgUp/PgDn page \(kiosk.page + 1)/\(kiosk.pages)", 3)]
            if calls.isEmpty { items.append(I("Tab next door", 6)) }
            items += [I("Q quit", 7), KeyBar.help]
            return KeyBar(items)
        }
        if call != nil {
            return KeyBar(items + [I("o open \(openLabel(.main, now: now))", 3), I("O 2nd door", 6), KeyBar.help])
        }
        return KeyBar([I("o open \(openLabel(.main, now: now))", 1), I("Tab choose door", 3), I("O 2nd door", 5), I("g gate", 6),
                       I("l journal", 4), I("q quit", 2), KeyBar.help])
    }

    /// The queue line: every call in the order it came, the selected one marked; nil with no call.
    func queueLine(now: Date) -> String? {
        guard !calls.isEmpty else { return nil }
        let focus = doorFocus ? nil : selectedCall?.id
        let entries = calls.map { call in
            (call.id == focus ? Self.selectedMark : "") + "\(call.title) \(call.state(now: now))"
        }
        return "queue: " + entries.joined(separator: " · ")
    }

    /// The message row while a prompt is open (nil: no prompt).
    func promptLine(filterShown: Int?) -> String? {
        if quitAsked { return "a call is in progress or this is a kiosk: quit? y/n (Esc: stay)" }
        if let typed = transferPrompt {
            return (transferAttended ? "consult first, call (name or sip:URI): " : "transfer to (name or sip:URI): ") + "\(typed)_"
        }
        if let prompt = doorPrompt {
            let matches = doorsMatching(prompt.typed, door: prompt.door).map(Self.title)
            let which = prompt.door == .main ? "door" : (prompt.door == .alt ? "second door" : "gate")
            return "open which \(which)? (name or number): \(prompt.typed)_   "
                + (matches.isEmpty ? "no such door" : matches.joined(separator: ", "))
        }
        if let typed = kiosk.typing {
            return "filter panels by name: \(typed)_   (\(filterShown ?? 0) shown; Enter keeps, Esc clears)"
        }
        return nil
    }

    /// A lone Esc: closes whatever prompt or view is open; false when there was none.
    mutating func escape() -> Bool {
        if quitAsked { quitAsked = false; return true }
        if transferPrompt != nil { (transferPrompt, transferCall) = (nil, nil); return true }
        if doorPrompt != nil { doorPrompt = nil; return true }
        if kiosk.typing != nil { kiosk.apply(.clear); return true }
        if showHelp { showHelp = false; return true }
        if journal != nil, selectedCall == nil { journal = nil; return true }
        if message?.warn == true { message = nil; return true }
        return false
    }
}
