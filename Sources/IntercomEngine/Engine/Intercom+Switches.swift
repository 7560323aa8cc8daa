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
        switches?.setCalls(on, panel: panel.name, configured: configuredPanels[panel.name.lowercased()]?.calls ?? panel.calls,
                          logger: logger)
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
        switches?.setGuest(until, panel: panel.name,
                          configured: configuredPanels[panel.name.lowercased()].map { $0.guestUntil } ?? panel.guestUntil,
                          logger: logger)
        config.panels[index].guestUntil = until
        logger.notice("panel \(panel.name): guest mode \(until.map { "until \(RFC3339.string($0))" } ?? "off")")
        publishPolicy(config.panels[index])
        return policyJSON(config.panels[index])
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
