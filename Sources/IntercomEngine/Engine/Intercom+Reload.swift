import Foundation

extension Intercom {
    /// Applies a reloaded config's panel policies to the running core without touching calls in
    /// progress (each keeps the panel settings it started with). What needs a restart — a panel
    /// added or removed, its URL or credentials, `[sip]`, `[audio]`, the socket — is left as it
    /// is and returned, one line each, for the daemon to log.
    @discardableResult
    public func updatePanels(_ newConfig: IntercomConfig) -> [String] {
        var notApplied: [String] = []
        var updated = config.panels
        for (index, old) in updated.enumerated() {
            guard let new = newConfig.panel(named: old.name) else {
                notApplied.append("panel \(old.name) was removed: restart the daemon to drop it")
                continue
            }
            if new.url != old.url || new.user != old.user || new.password != old.password || new.model != old.model
                || new.auth != old.auth || new.tlsInsecure != old.tlsInsecure || new.caFile != old.caFile || new.stream != old.stream {
                notApplied.append("panel \(old.name): url, credentials, auth, model, TLS or stream changed: restart the daemon to apply")
            }
            var merged = old
            merged.calls = new.calls
            merged.autoAnswer = new.autoAnswer
            merged.guestUntil = new.guestUntil
            merged.match = new.match
            merged.source = new.source
            merged.autoOpenInterval = new.autoOpenInterval
            merged.dtmfMain = new.dtmfMain
            merged.dtmfAlt = new.dtmfAlt
            merged.dtmfTiming = new.dtmfTiming
            merged.open = new.open
            merged.peepholeFPS = new.peepholeFPS
            merged.dial = new.dial
            updated[index] = merged
        }
        for new in newConfig.panels where config.panel(named: new.name) == nil {
            notApplied.append("panel \(new.name) is new: restart the daemon to add it")
        }
        if newConfig.sip != config.sip { notApplied.append("[sip] changed: restart the daemon to apply") }
        if newConfig.audio != config.audio { notApplied.append("[audio] changed: restart the daemon to apply") }
        if newConfig.daemon != config.daemon { notApplied.append("[daemon] changed: restart the daemon to apply") }
        config.panels = updated
        // The phone thread refuses strangers by the same rules, so it must see the new ones too.
        callerGate.update(CallerDirectory(panels: updated, sip: config.sip, logger: logger))
        config.journal = newConfig.journal
        config.hooks = newConfig.hooks
        return notApplied
    }
}
