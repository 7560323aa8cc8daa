import IntercomBase
import IntercomEngine

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

    /// What `o`, `O` or `g` opens (the `panel` of `IntercomCommand.open`): the shown call's panel;
    /// without a call the chosen door for `o` — an operator's door has no second door or gate
    /// output, so `O` and `g` keep meaning the panel's — and nil (the only panel) otherwise.
    func openTarget(door: Door) -> String? {
        if let call = selectedCall { return call.panel }
        guard let chosen = doors.first(where: { $0.id == chosenDoor }) else { return nil }
        if chosen.source == .operator && door != .main { return nil }
        return chosen.id
    }

    /// The kiosk's number key N: the Nth door of the list (panels first, as the tiles are numbered).
    func kioskDoor(_ index: Int) -> String? {
        index < doors.count ? doors[index].id : nil
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
