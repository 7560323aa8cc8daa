import Foundation
import IntercomBase
import IntercomModel

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

    /// Tab without a call: the next door of the list (wrapping).
    mutating func chooseNextDoor() {
        guard !doors.isEmpty else { return }
        let index = doors.firstIndex { $0.id == chosenDoor } ?? -1
        chosenDoor = doors[(index + 1) % doors.count].id
        if let door = doors.first(where: { $0.id == chosenDoor }) { say("o opens \(Self.title(door))") }
    }

    /// What `o`, `O` or `g` does: open a door at once, or ask which one.
    enum OpenChoice: Equatable {
        /// The `panel` of `IntercomCommand.open`: nil leaves it to the intercom (no door at all).
        case open(String?)
        /// More than one door is meant: the screen asks for a name (`doorPrompt`).
        case ask
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
        let meant = candidates(door: door)
        return meant.count <= 1 ? .open(meant.first?.id) : .ask
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
    mutating func selectDoor(_ index: Int) {
        guard index < doors.count else {
            say("there is no door \(index + 1)")
            return
        }
        let door = doors[index]
        if let call = calls.first(where: { $0.panel == door.id }) {
            selected = call.id
            doorFocus = false
            return
        }
        chosenDoor = door.id
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
