import Foundation
import IntercomBase

/// Which zone the operator's times are read and written in (`OperatorServerZone` says why it is
/// not simply `ext/options`): `[operator NAME] timezone`, else the offset learned from the log
/// entry of one of this client's own openings, else `ext/options` `timeZone`, else Moscow.
extension OperatorClient {
    /// Resolved once per client.
    public func timeZone() async -> TimeZone {
        if let known = zone.withLock({ $0 }) { return known }
        let found = await resolveZone()
        zone.withLock { $0 = found }
        return found
    }

    private func resolveZone() async -> TimeZone {
        if let named = config.timeZone { return named }
        let options = await optionsTimeZone()
        if let offset = learnedOffset { return OperatorServerZone.zone(offset: offset, named: options) }
        return options ?? Self.defaultTimeZone
    }

    /// The zone `ext/options` names; nil when it names none (an older server, a refusal).
    public func optionsTimeZone() async -> TimeZone? {
        (try? await call("ext/options"))?.text("timeZone").flatMap(TimeZone.init(identifier:))
    }

    /// What this client learned of the server's offset (seconds east of UTC), if anything.
    public var learnedOffset: Int? {
        (try? store?.load(config.name))??.serverOffset
    }

    /// SmartYard's default when the operator does not say.
    public static let defaultTimeZone = TimeZone(identifier: "Europe/Moscow") ?? TimeZone(secondsFromGMT: 3 * 3600) ?? .current

    /// Keeps the opening just made, to be found in the log later (only when the zone is not set).
    func noteProbe(_ probe: OperatorZoneProbe) {
        guard config.timeZone == nil, let store else { return }
        try? store.update(config.name) { $0.zoneProbe = probe }
    }

    /// Looks for the probe's entry in a day of the log (raw entries); once found, the offset is
    /// kept and the zone read again. A probe past its lifetime is dropped.
    func learn(from entries: [JSONValue], now: Date = Date()) {
        guard config.timeZone == nil, let store, let probe = (try? store.load(config.name))??.zoneProbe else { return }
        if now.timeIntervalSince(probe.sent) > OperatorServerZone.probeLifetime {
            try? store.update(config.name) { $0.zoneProbe = nil }
            return
        }
        guard let offset = OperatorServerZone.learn(from: entries, probe: probe, phone: config.phone) else { return }
        try? store.update(config.name) {
            $0.serverOffset = offset
            $0.zoneProbe = nil
        }
        zone.withLock { $0 = nil }
    }
}
