import Foundation
import IntercomBase

extension Intercom {
    /// `setCalls`: do-not-disturb on (`on` false) or off for one panel, saved in the switch store
    /// and reported as `panel_policy`.
    func setCalls(panel name: String?, on: Bool) throws -> JSONValue {
        let panel = try resolvePanel(name)
        guard let index = config.panels.firstIndex(where: { $0.name == panel.name }) else {
            throw IntercomError.unknownPanel("no panel named '\(name ?? "")'")
        }
        // Saved first: a switch held only in memory would be undone, silently, by the next restart.
        do {
            try switches?.setCalls(on, panel: panel.name, configured: configuredPanels[panel.name.lowercased()]?.calls ?? panel.calls,
                                   logger: logger)
        } catch {
            throw notSaved(panel.name, on ? "calls on" : "calls off (do not disturb)", error, applied: false)
        }
        config.panels[index].calls = on
        logger.notice("panel \(panel.name): calls \(on ? "on" : "off (do not disturb)")")
        publishPolicy(config.panels[index])
        return policyJSON(config.panels[index])
    }

    /// `setGuest`: guest mode until `until` (nil = off) for one panel, saved like `setCalls`.
    func setGuest(panel name: String?, until: Date?) throws -> JSONValue {
        let panel = try resolvePanel(name)
        guard let index = config.panels.firstIndex(where: { $0.name == panel.name }) else {
            throw IntercomError.unknownPanel("no panel named '\(name ?? "")'")
        }
        let until = until.flatMap { $0 > clock.date ? $0 : nil }
        do {
            try switches?.setGuest(until, panel: panel.name,
                                   configured: configuredPanels[panel.name.lowercased()].map { $0.guestUntil } ?? panel.guestUntil,
                                   logger: logger)
        } catch {
            // Guest mode off closes the door to strangers: that holds now even unsaved (DECISIONS.md,
            // "A switch that cannot be saved"); guest mode on is not switched without being kept.
            if until == nil { applyGuest(nil, at: index) }
            throw notSaved(panel.name, until == nil ? "guest mode off" : "guest mode on", error, applied: until == nil)
        }
        applyGuest(until, at: index)
        return policyJSON(config.panels[index])
    }

    private func applyGuest(_ until: Date?, at index: Int) {
        config.panels[index].guestUntil = until
        logger.notice("panel \(config.panels[index].name): guest mode \(until.map { "until \(RFC3339.string($0))" } ?? "off")")
        publishPolicy(config.panels[index])
    }

    /// The caller's error for a switch the state folder would not take; logged, and published as an
    /// `error` event so every screen (the TUI's status line) and `ctl events` see it too.
    private func notSaved(_ panel: String, _ switched: String, _ error: StateDirectoryError, applied: Bool) -> IntercomError {
        let message = applied
            ? "panel \(panel): \(switched) now, but not saved, so a restart may undo it: \(error)"
            : "panel \(panel): not switched to \(switched): it could not be saved to outlive a restart: \(error)"
        logger.error(message)
        publish(.error(message: message))
        return .switchNotSaved(message)
    }

    func publishPolicy(_ panel: PanelConfig) {
        publish(.panelPolicy(panel: panel.name, calls: panel.calls,
                             guestUntil: panel.isGuestModeActive(at: clock.date) ? panel.guestUntil : nil))
    }

    private func policyJSON(_ panel: PanelConfig) -> JSONValue {
        .object([("panel", .string(panel.name)), ("calls", .bool(panel.calls)),
                 ("guest_until", panel.guestUntil.map { .string(RFC3339.string($0)) } ?? .null)])
    }

    /// The config's panels with the saved switches on top (at start and after SIGHUP);
    /// `configured` remembers the file's own values for the next switch.
    static func withSwitches(_ panels: [PanelConfig], store: PanelSwitchStore, logger: Logger)
        -> (panels: [PanelConfig], configured: [String: PanelConfig]) {
        let configured = Dictionary(panels.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        return (store.apply(to: panels, logger: logger), configured)
    }
}
