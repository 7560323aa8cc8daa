import Foundation
import IntercomBase

extension Intercom {
    /// Applies a reloaded config to the running core without touching calls in progress (each
    /// keeps the panel settings it started with). The config table decides key by key
    /// (`ConfigReloadPlan`): live keys are applied; what needs a restart — a panel added or
    /// removed, its URL or credentials, `[sip]`, `[audio]`, the socket — is left as it is and
    /// returned, one line each, for the host to log. The `reload` command's work (SIGHUP).
    func reload(_ newConfig: IntercomConfig) -> [String] {
        let before = config.panels
        let plan = ConfigReloadPlan(running: config, reloaded: newConfig)
        config = plan.config
        // Switches flipped at run time hold over the file unless the file's own value changed.
        config.panels = switches.load(config.panels, logger: logger)
        for panel in config.panels {
            guard let old = before.first(where: { $0.name == panel.name }) else { continue }
            if old.calls != panel.calls || old.guestUntil != panel.guestUntil { publishPolicy(panel) }
        }
        // The phone thread refuses strangers by the same rules, so it must see the new ones too.
        callerGate.update(CallerDirectory(panels: config.panels, sip: config.sip, operatorCalls: !config.operators.isEmpty, logger: logger))
        // The operators' doors are asked for again: a login since start, a new section.
        tasks.start { await self.refreshOperatorDoors() }
        startOperatorRefresh()
        return plan.notApplied
    }
}
