import Foundation
import IntercomBase

extension Intercom {
    /// Applies a reloaded config to the running core without touching calls in progress (each
    /// keeps the panel settings it started with). The config table decides key by key
    /// (`ConfigReloadPlan`): live keys are applied; what needs a restart — a panel added or
    /// removed, its URL or credentials, `[sip]`, `[audio]`, the socket — is left as it is and
    /// returned, one line each, for the daemon to log.
    @discardableResult
    public func updatePanels(_ newConfig: IntercomConfig) -> [String] {
        let plan = ConfigReloadPlan(running: config, reloaded: newConfig)
        config = plan.config
        // The phone thread refuses strangers by the same rules, so it must see the new ones too.
        callerGate.update(CallerDirectory(panels: config.panels, sip: config.sip, operatorCalls: !config.operators.isEmpty, logger: logger))
        // The operators' doors are asked for again: a login since start, a new section.
        Task { await self.refreshOperatorDoors() }
        if operatorRefresh == nil { startOperatorRefresh() }
        return plan.notApplied
    }
}
