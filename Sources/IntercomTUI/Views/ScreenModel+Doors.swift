import Foundation
import IntercomBase

/// The door list: panels' and operators' doors side by side, one of them chosen for `o` when no
/// call is on the screen, and the kiosk's numbers.
extension ScreenModel {
    /// Takes the engine's current list (operators' doors arrive after their first refresh); a
    /// chosen door that is gone is forgotten.
    mutating func updateDoors(_ list: [DoorListing]) {
        guard list != doors else { return }
        doors = list
        if let chosen = chosenDoor, !list.contains(where: { $0.id == chosen }) { chosenDoor = nil }
    }

    /// Tab without a call: the next door of the list (wrapping), picked for `pickSeconds`.
    mutating func chooseNextDoor(now: Date = Date()) {
        guard !doors.isEmpty else { return }
        let index = doors.firstIndex { $0.id == chosenDoor } ?? -1
        chosenDoor = doors[(index + 1) % doors.count].id
        chosenUntil = now.addingTimeInterval(Self.pickSeconds)
        if let door = doors.first(where: { $0.id == chosenDoor }) { say("o opens \(Self.title(door))") }
    }

    /// How long a door picked by a digit or Tab stays picked once its panel has no call: long
    /// enough to press `o`, too short for a later `o` (meant for something else) to open it.
    static let pickSeconds: TimeInterval = 15

    /// The picked door is kept while its panel has a call, then forgotten `pickSeconds` later.
    mutating func expirePick(now: Date) {
        guard let chosen = chosenDoor, let until = chosenUntil else { return }
        if calls.contains(where: { $0.panel == chosen }) {
            chosenUntil = max(until, now.addingTimeInterval(Self.pickSeconds))
        } else if now >= until {
            (chosenDoor, chosenUntil, doorFocus) = (nil, nil, false)
        }
    }

    /// The seconds left of the pick (the screen counts them down); nil while its panel has a
    /// call (it lasts as long) or when nothing is picked.
    func pickLeft(now: Date) -> Int? {
        guard let chosen = chosenDoor, let until = chosenUntil, !calls.contains(where: { $0.panel == chosen }) else { return nil }
        return max(0, Int(until.timeIntervalSince(now).rounded(.up)))
    }

    /// What `o`, `O` or `g` does: open a door at once, or ask which one.
    enum OpenChoice: Equatable {
        /// The `panel` of `IntercomCommand.open`: nil leaves it to the intercom (no door at all).
        case open(String?)
        /// More than one door is meant: the screen asks for a name (`doorPrompt`).
        case ask
        /// Nothing to open: the kiosk opens only a door a digit picked; the text says how.
        case pickFirst(String)
    }

    /// What `o`, `O` or `g` opens: the shown call's panel (unless a kiosk digit chose a door
    /// since); else the chosen door — an operator's door has no second door or gate output, so
    /// `O` and `g` look among the panels — and the only door meant when there is exactly one.
    /// A single key never guesses between several doors.
    func openChoice(door: Door) -> OpenChoice {
        if let call = selectedCall, !doorFocus || call.stage != .ringing { return .open(call.panel) }
        if let chosen = doors.first(where: { $0.id == chosenDoor }), chosen.source == .panel || door == .main {
            return .open(chosen.id)
        }
        // The kiosk: a door is opened only by its number then `o` (a single key never opens
        // the door left picked long ago, nor guesses).
        if kioskMode { return .pickFirst("no door picked: press its number (1-\(doors.count)), then o") }
        let meant = candidates(door: door)
        return meant.count <= 1 ? .open(meant.first?.id) : .ask
    }

    /// What `a`, `d` (and `h` on a ringing call) act on: the marked tile's ringing call when a
    /// digit marked a tile, else the selected call — the key bar names the same one.
    enum RingTarget: Equatable {
        /// The call to answer or decline; nil leaves it to the intercom (the one ringing).
        case call(CallID?)
        /// The marked tile has no ringing call: nothing is answered, the text says so.
        case none(String)
    }

    var ringTarget: RingTarget {
        guard doorFocus else { return .call(selectedCall?.stage == .ringing ? selectedCall?.id : nil) }
        if let call = markedCall, call.stage == .ringing { return .call(call.id) }
        let name = doorName(chosenDoor) ?? "the picked door"
        return .none("\(name) is not ringing: Tab goes back to the calls, a ringing tile's number picks it")
    }

    /// The call on the tile a digit marked (nil: none, or no tile is marked).
    var markedCall: CallView? {
        doorFocus ? calls.first { $0.panel == chosenDoor } : nil
    }

    /// The name of a door as the key bar says it (`o open entrance`).
    func doorName(_ id: String?) -> String? {
        guard let id else { return nil }
        return doors.first { $0.id == id }.map(Self.title) ?? id
    }

    /// The doors `door` can be on: every door for the main one, the panels' for the others.
    func candidates(door: Door) -> [DoorListing] {
        doors.filter { door == .main || $0.source == .panel }
    }

    /// The doors the name typed at the prompt fits: its number on the list (as the kiosk numbers
    /// them), a whole id or name, else every door whose id or name starts with it, else contains
    /// it (case-insensitive).
    func doorsMatching(_ typed: String, door: Door) -> [DoorListing] {
        let meant = candidates(door: door)
        let needle = typed.trimmingCharacters(in: .whitespaces).lowercased()
        guard !needle.isEmpty else { return meant }
        if let n = Int(needle), n >= 1, n <= doors.count { return meant.filter { $0.id == doors[n - 1].id } }
        let names = { (d: DoorListing) in [d.id.lowercased(), d.name.lowercased(), Self.title(d).lowercased()] }
        for test in [{ (n: String) in n == needle }, { $0.hasPrefix(needle) }, { $0.contains(needle) }] {
            let found = meant.filter { names($0).contains(where: test) }
            if !found.isEmpty { return found }
        }
        return []
    }

    /// The kiosk's number key N: the Nth door of the list (panels first, as the tiles are
    /// numbered) is chosen and drawn as selected; a call from that panel is selected instead.
    /// Nothing opens: `o` does that.
    mutating func selectDoor(_ index: Int, now: Date = Date()) {
        guard index < doors.count else {
            say("there is no door \(index + 1)")
            return
        }
        let door = doors[index]
        // Picked while its panel has a call and `pickSeconds` after (`expirePick`).
        chosenDoor = door.id
        chosenUntil = now.addingTimeInterval(Self.pickSeconds)
        if let call = calls.first(where: { $0.panel == door.id }) {
            selected = call.id
            doorFocus = false
            return
        }
        doorFocus = true
    }

    /// The panel whose tile is drawn as selected in the kiosk.
    var focusedPanel: String? {
        if let call = selectedCall, !doorFocus { return call.panel }
        return chosenDoor
    }

    /// `Entrance 1 (home)` for an operator's door, the panel's name for a panel's.
    static func title(_ door: DoorListing) -> String {
        door.source == .operator ? "\(door.name) (\(door.owner))" : door.owner
    }

    /// The message line of a `door_opened`: an operator only accepts a request (it does not know
    /// whether the door opened), so its line says so.
    static func doorText(owner: String, door: String, method: String, ok: Bool, error: String?) -> String {
        if method == "operator" {
            return ok ? "open request accepted by \(owner) (\(door))" : "open request for \(door) failed: \(error ?? "")"
        }
        return ok ? "door \(door) of \(owner) opened (\(method))" : "door \(door) of \(owner) did not open (\(method)): \(error ?? "")"
    }
}
