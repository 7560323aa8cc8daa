import Foundation
import Synchronization

/// One encoded frame line per picture and size, shared by every subscription that asks for it:
/// three screens showing a ringing panel at one size cost one JPEG encode (and one base64) per
/// frame, not three. A slot (`panel:porch@640x360`) holds only its newest line, and goes once the
/// last subscription using it ends, so screens coming and going leave nothing behind.
final class SharedPictures: Sendable {
    private final class Slot: Sendable {
        let line = Mutex<(id: String, line: String)?>(nil)
    }

    private let slots = Mutex<[String: (slot: Slot, users: Int)]>([:])
    private let made = Atomic<Int>(0)

    /// Lines encoded so far (tests and the bench count them).
    var encodes: Int { made.load(ordering: .relaxed) }

    /// Slots in use now.
    var count: Int { slots.withLock { $0.count } }

    /// A subscription starts using `name`.
    func use(_ name: String) {
        slots.withLock { all in
            let slot = all[name]?.slot ?? Slot()
            all[name] = (slot, (all[name]?.users ?? 0) + 1)
        }
    }

    /// A subscription stopped using `name`; the slot goes with its last user.
    func release(_ name: String) {
        slots.withLock { all in
            guard let entry = all[name] else { return }
            all[name] = entry.users > 1 ? (entry.slot, entry.users - 1) : nil
        }
    }

    /// The line of picture `id` in slot `name`: made by the first subscription that asks (the
    /// others asking meanwhile wait for it), then shared until a newer picture replaces it.
    func line(_ name: String, id: String, make: () -> String?) -> String? {
        guard let slot = slots.withLock({ $0[name]?.slot }) else { return make() }
        return slot.line.withLock { cached -> String? in
            if let cached, cached.id == id { return cached.line }
            guard let line = make() else { return nil }
            cached = (id, line)
            made.add(1, ordering: .relaxed)
            return line
        }
    }
}
