import Foundation
import IntercomBase
import IntercomCore
import Synchronization

/// A switch store in memory, for the switches part's tests: it keeps what it is given, by panel,
/// and refuses to keep anything while `failing` holds an error (a full disk, a database down).
package final class FakeSwitchStore: SwitchStore {
    package struct Kept: Sendable, Equatable {
        package var calls: Bool?
        package var guestUntil: Date??
    }

    package struct Refused: Error, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    private struct State {
        var kept: [String: Kept] = [:]
        var failing: Refused?
        var applied = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// What the store keeps now, by lowercased panel name.
    package var kept: [String: Kept] { state.withLock { $0.kept } }
    /// How many times the engine asked for the kept switches (start, each reload).
    package var applied: Int { state.withLock { $0.applied } }
    /// The next switches are refused with this error (nil: kept again).
    package func fail(_ error: Refused?) { state.withLock { $0.failing = error } }

    package func check() throws {
        if let failing = state.withLock({ $0.failing }) { throw failing }
    }

    package func apply(to panels: [PanelConfig], logger: Logger) -> [PanelConfig] {
        let kept = state.withLock { s in
            s.applied += 1
            return s.kept
        }
        return panels.map { panel in
            var panel = panel
            if let entry = kept[panel.name.lowercased()] {
                if let calls = entry.calls { panel.calls = calls }
                if let guest = entry.guestUntil { panel.guestUntil = guest }
            }
            return panel
        }
    }

    package func setCalls(_ on: Bool, panel: String, configured: Bool, logger: Logger) throws {
        try state.withLock { s in
            if let failing = s.failing { throw failing }
            s.kept[panel.lowercased(), default: Kept()].calls = on
        }
    }

    package func setGuest(_ until: Date?, panel: String, configured: Date?, logger: Logger) throws {
        try state.withLock { s in
            if let failing = s.failing { throw failing }
            s.kept[panel.lowercased(), default: Kept()].guestUntil = .some(until)
        }
    }
}
