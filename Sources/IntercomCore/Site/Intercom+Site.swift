import Foundation
import IntercomBase

/// The engine in a site (issue 40): it runs its `SiteLink`, shares its switches through it and
/// applies the other desks'. A lone desk never calls `runSite`, so `site` stays nil and nothing
/// here runs.
extension Intercom {
    /// From now on the switches made here go to the site through `link` (kept in its outbox until
    /// `runSite` sends them): the daemon joins before its engine starts, so no command meets an
    /// engine that is not in its site yet.
    public func joinSite(_ link: SiteLink) {
        site = link
    }

    /// Joins the site through `link` until the calling task is cancelled (the daemon's site stage
    /// owns that task): the link's heartbeat and feed run, and what it reports is applied here.
    public func runSite(_ link: SiteLink) async {
        site = link
        defer { site = nil }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await link.run() }
            group.addTask { for await event in link.events { await self.siteReported(event) } }
        }
    }

    private func siteReported(_ event: SiteLink.Event) async {
        switch event {
        case .switchChanged(let change):
            siteSeen.switched(change)
            applySiteSwitch(change)
        case .unreachable(let why):
            siteSeen.unreachable = why
            publish(.siteUnreachable(error: why))
        case .reachable(let replayed):
            siteSeen.unreachable = nil
            publish(.siteReachable(replayed: replayed))
        case .handled(let id, let who, let time): await siteHandled(id, by: who, at: time)
        // Calls ask the link themselves.
        case .callChanged: break
        }
    }

    /// A switch command's reply (`PanelSwitches.json`), shared with the other desks. Never called
    /// for a switch that came from the site: that one is applied by `applySiteSwitch` only.
    func shareSwitch(_ reply: JSONValue, _ kind: SiteSwitchKind) async {
        guard let site, let panel = reply["panel"]?.stringValue else { return }
        let value: String
        switch kind {
        case .calls:
            guard let on = reply["calls"]?.boolValue else { return }
            value = SiteSwitchValue.calls(on)
        case .guest: value = reply["guest_until"]?.stringValue ?? SiteSwitchValue.guest(nil)
        case .policy: return
        }
        siteSeen.switched(await site.publish(panel: panel, kind: kind, value: value))
    }

    /// `ctl status`'s `site` object (none for a lone desk): whether the store answers, and who
    /// switched what when at the site.
    func siteStatus() -> (String, JSONValue)? {
        guard site != nil else { return nil }
        return ("site", .object([("reachable", .bool(siteSeen.unreachable == nil)), ("error", .optional(siteSeen.unreachable)),
                                 ("switches", .array(siteSeen.switches.sorted { $0.key < $1.key }.map(\.value.json)))]))
    }

    /// `ctl duty`: this desk on duty or off, and who is on duty here; the other desks see it at once.
    func duty(_ on: Bool, operatorName: String?) async throws -> JSONValue {
        guard let site else { throw IntercomError.notNow(Self.noSite) }
        let settings = await site.setDuty(on, operatorName: operatorName)
        return .object([("desk", .string(settings.desk)), ("on_duty", .bool(settings.onDuty)),
                        ("operator", .optional(settings.operatorName))])
    }

    /// `ctl site`: the site's desks as this desk sees them now.
    func siteDesks() async throws -> JSONValue {
        guard let site else { throw IntercomError.notNow(Self.noSite) }
        let rows: [SiteDeskRow]
        do { rows = try await site.desks() } catch {
            throw IntercomError.notNow("the site's store cannot be reached (\(error)); this desk goes on alone, try again later")
        }
        return .object([("desks", .array(rows.map(\.json))), ("nobody_on_duty", .bool(SiteDeskRow.nobodyOnDuty(rows)))])
    }

    static let noSite = "this desk is not in a site: add [site] with its url to the config (docs/SITE.md)"

    /// Another desk's switch: applied and kept here as a local switch is (so it outlives this desk's
    /// restart with the store down), told to every face as `panel_policy`, not sent back.
    func applySiteSwitch(_ change: SiteSwitchChange) {
        guard let index = config.panels.firstIndex(where: { $0.name.caseInsensitiveCompare(change.panel) == .orderedSame }) else {
            return logger.info("site: \(change.desk) switched \(change.kind.rawValue) on \(change.panel), a panel this desk does not have")
        }
        do {
            switch (change.kind, SiteSwitchValue.calls(change.value), SiteSwitchValue.guest(change.value)) {
            case (.calls, let on?, _): try switches.setCalls(on, in: &config.panels, at: index, logger: logger)
            case (.guest, _, let until?): try switches.setGuest(until, in: &config.panels, at: index, now: clock.date, logger: logger)
            default:
                return logger.warning("site: \(change.kind.rawValue) = '\(change.value)' from \(change.desk) is not a switch this version knows; ignored")
            }
        } catch {
            logger.error("site: \(error.message)")
            guard error.applied else { return }
        }
        logger.notice("site: \(change.kind.rawValue) on \(change.panel) switched to \(change.value) at \(change.desk)"
                      + (change.operatorName.map { " by \($0)" } ?? "") + " (\(RFC3339.string(change.at)))")
        publishPolicy(config.panels[index])
    }
}

/// What the engine keeps of the site for `ctl status`: the latest switch per panel and kind, made
/// here or at another desk, and why the store does not answer during an outage.
struct SiteSeen {
    var switches: [String: SiteSwitchChange] = [:]
    var unreachable: String?

    mutating func switched(_ change: SiteSwitchChange) {
        let key = SiteLink.switchKey(change.panel, change.kind)
        if let known = switches[key], known.at > change.at { return }
        switches[key] = change
    }
}

extension JSONValue {
    /// This object with `field` after its own fields; itself when there is none.
    func adding(_ field: (String, JSONValue)?) -> JSONValue {
        guard let field, case .object(let fields) = self else { return self }
        return .object(fields + [field])
    }
}
