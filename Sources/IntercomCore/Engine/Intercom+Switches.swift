import Foundation
import IntercomBase

/// Switch commands routed to the switches part (`PanelSwitches`), reported as `panel_policy`.
extension Intercom {
    /// `setCalls`: do-not-disturb on (`on` false) or off for one panel.
    func setCalls(panel name: String?, on: Bool) throws -> JSONValue {
        try switchPanel(name) { panels, index throws(PanelSwitches.NotSaved) in
            try switches.setCalls(on, in: &panels, at: index, logger: logger)
        }
    }

    /// `setGuest`: guest mode until `until` (nil = off) for one panel.
    func setGuest(panel name: String?, until: Date?) throws -> JSONValue {
        let now = clock.date
        return try switchPanel(name) { panels, index throws(PanelSwitches.NotSaved) in
            try switches.setGuest(until, in: &panels, at: index, now: now, logger: logger)
        }
    }

    /// Switches the panel a command names, then tells every face the panel's policy now.
    private func switchPanel(_ name: String?, _ change: (inout [PanelConfig], Int) throws(PanelSwitches.NotSaved) -> Void) throws -> JSONValue {
        let panel = try resolvePanel(name)
        guard let index = config.panels.firstIndex(where: { $0.name == panel.name }) else {
            throw IntercomError.unknownPanel("no panel named '\(name ?? "")'")
        }
        do { try change(&config.panels, index) } catch { throw notSaved(error, at: index) }
        publishPolicy(config.panels[index])
        return PanelSwitches.json(config.panels[index])
    }

    /// A switch the store would not take: logged, and published as an `error` event so every
    /// screen (the TUI's status line) and `ctl events` see it too.
    private func notSaved(_ error: PanelSwitches.NotSaved, at index: Int) -> IntercomError {
        if error.applied { publishPolicy(config.panels[index]) }
        logger.error(error.message)
        publish(.error(message: error.message))
        return .switchNotSaved(error.message)
    }

    func publishPolicy(_ panel: PanelConfig) {
        publish(.panelPolicy(panel: panel.name, calls: panel.calls,
                             guestUntil: panel.isGuestModeActive(at: clock.date) ? panel.guestUntil : nil))
    }
}
