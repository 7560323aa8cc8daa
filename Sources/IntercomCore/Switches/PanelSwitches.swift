import Foundation
import IntercomBase

/// The switches part: do-not-disturb and guest mode flipped at run time, on top of the config's
/// panels, kept in a `SwitchStore` (none: held in memory only, as a one-shot command's engine).
/// A switch is kept before it is applied: one held only in memory would be undone, silently, by
/// the next restart. The one exception is guest mode off, which closes the door to strangers and
/// so holds at once even unsaved (DECISIONS.md, "A switch that cannot be saved").
struct PanelSwitches: Sendable {
    /// A switch the store would not take: what its caller and every screen are told.
    struct NotSaved: Error, Sendable {
        var message: String
        /// True when the switch holds now all the same (guest mode off).
        var applied: Bool
    }

    let store: (any SwitchStore)?
    /// The panels as the config file has them (before the switches), by lowercased name: a switch
    /// remembers the file's value, so that the file's next change of it wins.
    private(set) var configured: [String: PanelConfig] = [:]

    init(store: (any SwitchStore)?) { self.store = store }

    /// The config's panels with the kept switches on top (at start and after SIGHUP).
    mutating func load(_ panels: [PanelConfig], logger: Logger) -> [PanelConfig] {
        configured = Dictionary(panels.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        return store?.apply(to: panels, logger: logger) ?? panels
    }

    /// Do-not-disturb off (`on`) or on for `panels[index]`: kept, then applied.
    func setCalls(_ on: Bool, in panels: inout [PanelConfig], at index: Int, logger: Logger) throws(NotSaved) {
        let panel = panels[index]
        let switched = on ? "calls on" : "calls off (do not disturb)"
        do {
            try store?.setCalls(on, panel: panel.name, configured: configured[panel.name.lowercased()]?.calls ?? panel.calls, logger: logger)
        } catch {
            throw Self.notSaved(panel.name, switched, error, applied: false)
        }
        panels[index].calls = on
        logger.notice("panel \(panel.name): \(switched)")
    }

    /// Guest mode until `until` (nil, or a time already past: off) for `panels[index]`, kept like `setCalls`.
    func setGuest(_ until: Date?, in panels: inout [PanelConfig], at index: Int, now: Date, logger: Logger) throws(NotSaved) {
        let panel = panels[index]
        let until = until.flatMap { $0 > now ? $0 : nil }
        do {
            try store?.setGuest(until, panel: panel.name,
                                configured: configured[panel.name.lowercased()].map { $0.guestUntil } ?? panel.guestUntil, logger: logger)
        } catch {
            if until == nil { Self.applyGuest(nil, in: &panels, at: index, logger: logger) }
            throw Self.notSaved(panel.name, until == nil ? "guest mode off" : "guest mode on", error, applied: until == nil)
        }
        Self.applyGuest(until, in: &panels, at: index, logger: logger)
    }

    private static func applyGuest(_ until: Date?, in panels: inout [PanelConfig], at index: Int, logger: Logger) {
        panels[index].guestUntil = until
        logger.notice("panel \(panels[index].name): guest mode \(until.map { "until \(RFC3339.string($0))" } ?? "off")")
    }

    private static func notSaved(_ panel: String, _ switched: String, _ error: any Error, applied: Bool) -> NotSaved {
        NotSaved(message: applied
            ? "panel \(panel): \(switched) now, but not saved, so a restart may undo it: \(error)"
            : "panel \(panel): not switched to \(switched): it could not be saved to outlive a restart: \(error)",
            applied: applied)
    }

    /// A switch command's reply: the panel's switches as they are now.
    static func json(_ panel: PanelConfig) -> JSONValue {
        .object([("panel", .string(panel.name)), ("calls", .bool(panel.calls)),
                 ("guest_until", panel.guestUntil.map { .string(RFC3339.string($0)) } ?? .null)])
    }
}
