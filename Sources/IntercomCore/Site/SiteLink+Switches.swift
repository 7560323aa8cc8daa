import Foundation
import IntercomBase

/// The switches the desks share: a change made here is published (or kept for the site during an
/// outage); one from another desk is applied here once, and never published back.
extension SiteLink {
    /// A switch's identity at the site: panel (any case) and kind.
    nonisolated static func switchKey(_ panel: String, _ kind: SiteSwitchKind) -> String { "\(panel.lowercased())/\(kind.rawValue)" }

    /// A switch flipped at this desk: known here at once, sent to the site (or its outbox); the change as sent.
    @discardableResult
    public func publish(panel: String, kind: SiteSwitchKind, value: String) -> SiteSwitchChange {
        let change = SiteSwitchChange(panel: panel, kind: kind, value: value, desk: settings.desk,
                                      operatorName: settings.operatorName, at: clock.date)
        let key = Self.switchKey(panel, kind)
        switches[key] = change
        send(.publish(change))
        // Kept while cut off: the site has not seen it, so another desk may switch it meanwhile
        // (one the sender fails to send is marked by `lost`).
        if unreachable != nil { switchedCutOff.insert(key) } else { switchedCutOff.remove(key) }
        return change
    }

    /// Who switched what when, as the site knows it (`ctl status`): the latest per panel and kind.
    public var knownSwitches: [SiteSwitchChange] {
        switches.sorted { $0.key < $1.key }.map(\.value)
    }

    /// A change read from the site (the feed, or the read after an outage): applied when it is
    /// newer than the one known here and not this desk's own echo. The later change wins, and the
    /// log says which one lost.
    func adopt(_ change: SiteSwitchChange) {
        let key = Self.switchKey(change.panel, change.kind)
        if let known = switches[key] {
            if known.sameSwitch(as: change) { return }
            if known.at > change.at {
                logger.info("site: \(change.kind.rawValue) on \(change.panel) switched to \(change.value) at \(change.desk) "
                            + "(\(RFC3339.string(change.at))) is older than \(known.value) at \(known.desk) "
                            + "(\(RFC3339.string(known.at))): the later one wins")
                return
            }
        }
        if let known = switches[key], known.desk == settings.desk, change.desk != settings.desk, switchedCutOff.remove(key) != nil {
            lostHere[key] = known
            logger.notice("site: \(known.kind.rawValue) on \(known.panel) switched here to \(known.value) (\(RFC3339.string(known.at))) "
                          + "while the site was unreachable lost to \(change.value) at \(change.desk)"
                          + (change.operatorName.map { " by \($0)" } ?? "") + " (\(RFC3339.string(change.at))): the later one wins")
        }
        switches[key] = change
        guard change.desk != settings.desk else { return }
        emit.yield(.switchChanged(change))
    }

    /// This desk's switches made while the site was unreachable that a later change at another desk
    /// replaced when the store was back (the latest per panel and kind): said in the log as it happens.
    public var lostSwitches: [SiteSwitchChange] { lostHere.sorted { $0.key < $1.key }.map(\.value) }
}

extension SiteSwitchChange {
    /// The same change, its time as the store keeps it (to the microsecond, through a float): our
    /// own change read back is neither older nor newer than itself.
    func sameSwitch(as other: SiteSwitchChange) -> Bool {
        var readBack = other
        readBack.at = at
        return self == readBack && abs(at.timeIntervalSince(other.at)) < 0.001
    }
}

/// How the engine's switches travel as the site's text values.
public enum SiteSwitchValue {
    /// Guest mode: `off`, or the RFC 3339 time it ends.
    public static func guest(_ until: Date?) -> String { until.map(RFC3339.string) ?? "off" }
    /// Guest mode read back: `.some(nil)` off, `.some(date)` on until then; nil for a value this version does not know.
    public static func guest(_ value: String) -> Date?? {
        if value == "off" { return .some(nil) }
        return RFC3339.date(value).map { .some($0) }
    }

    public static func calls(_ on: Bool) -> String { on ? "on" : "off" }
    public static func calls(_ value: String) -> Bool? { ["on": true, "off": false][value] }
}
