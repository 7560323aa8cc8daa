import Foundation
import IntercomBase

/// The engine in a site (issue 40): it runs its `SiteLink`, shares its switches through it and
/// applies the other desks'; `ctl site`, `ctl duty` and `ctl status`'s `site` object. It runs on the
/// engine (`isolated Intercom`), whose `site` part holds the link and what was seen of the site.
struct SiteFlow {
    /// Joins the site through `link` until the calling task is cancelled (the daemon's site stage
    /// owns that task): the link's heartbeat and feed run, and what it reports is applied here.
    func run(_ link: SiteLink, on engine: isolated Intercom) async {
        engine.site.link = link
        defer { engine.site.link = nil }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await link.run() }
            group.addTask { for await event in link.events { await reported(event, on: engine) } }
        }
    }

    private func reported(_ event: SiteLink.Event, on engine: isolated Intercom) async {
        switch event {
        case .switchChanged(let change):
            engine.site.seen.switched(change)
            apply(change, on: engine)
            // A change of ours made while cut off may just have lost to this one (the link says which).
            if let link = engine.site.link { engine.site.seen.lost = await link.lostSwitches }
        case .unreachable(let why):
            engine.site.seen.unreachable = why
            engine.publish(.siteUnreachable(error: why))
        case .reachable(let replayed):
            engine.site.seen.unreachable = nil
            engine.publish(.siteReachable(replayed: replayed))
        case .handled(let id, let who, let time): await SiteJournalFlow().handled(id, by: who, at: time, on: engine)
        case .nameTaken(let taken): engine.site.seen.nameTaken = taken
        // Calls ask the link themselves.
        case .callChanged: break
        }
    }

    /// A switch command's reply (`PanelSwitches.json`), shared with the other desks. Never called
    /// for a switch that came from the site: that one is applied by `apply` only.
    func share(_ reply: JSONValue, _ kind: SiteSwitchKind, on engine: isolated Intercom) async {
        guard let link = engine.site.link, let panel = reply["panel"]?.stringValue else { return }
        let value: String
        switch kind {
        case .calls:
            guard let on = reply["calls"]?.boolValue else { return }
            value = SiteSwitchValue.calls(on)
        case .guest: value = reply["guest_until"]?.stringValue ?? SiteSwitchValue.guest(nil)
        case .policy: return
        }
        engine.site.seen.switched(await link.publish(panel: panel, kind: kind, value: value))
    }

    /// `ctl status`'s `site` object (none for a lone desk): whether the store answers, and who
    /// switched what when at the site.
    func status(_ site: SiteMembership) -> (String, JSONValue)? {
        guard site.link != nil else { return nil }
        return ("site", .object([("reachable", .bool(site.seen.unreachable == nil)), ("error", .optional(site.seen.unreachable)),
                                 ("name_taken", .bool(site.seen.nameTaken)),
                                 ("switches", .array(site.seen.switches.sorted { $0.key < $1.key }.map(\.value.json))),
                                 ("lost", .array(site.seen.lost.map(\.json)))]))
    }

    /// `ctl duty`: this desk on duty or off, and who is on duty here; the other desks see it at once.
    func duty(_ on: Bool, operatorName: String?, on engine: isolated Intercom) async throws -> JSONValue {
        guard let link = engine.site.link else { throw IntercomError.notNow(Self.noSite) }
        let settings = await link.setDuty(on, operatorName: operatorName)
        return .object([("desk", .string(settings.desk)), ("on_duty", .bool(settings.onDuty)),
                        ("operator", .optional(settings.operatorName))])
    }

    /// `ctl site`: the site's desks as this desk sees them now.
    func desks(on engine: isolated Intercom) async throws -> JSONValue {
        guard let link = engine.site.link else { throw IntercomError.notNow(Self.noSite) }
        let rows: [SiteDeskRow]
        do { rows = try await link.desks() } catch {
            throw IntercomError.notNow("the site's store cannot be reached (\(error)); this desk goes on alone, try again later")
        }
        return .object([("desks", .array(rows.map(\.json))), ("nobody_on_duty", .bool(SiteDeskRow.nobodyOnDuty(rows)))])
    }

    static let noSite = "this desk is not in a site: add [site] with its url to the config (docs/SITE.md)"

    /// Another desk's switch: applied and kept here as a local switch is (so it outlives this desk's
    /// restart with the store down), told to every face as `panel_policy`, not sent back.
    func apply(_ change: SiteSwitchChange, on engine: isolated Intercom) {
        let logger = engine.logger
        guard let index = engine.config.panels.firstIndex(where: { $0.name.caseInsensitiveCompare(change.panel) == .orderedSame }) else {
            return logger.info("site: \(change.desk) switched \(change.kind.rawValue) on \(change.panel), a panel this desk does not have")
        }
        do {
            switch (change.kind, SiteSwitchValue.calls(change.value), SiteSwitchValue.guest(change.value)) {
            case (.calls, let on?, _): try engine.switches.setCalls(on, in: &engine.config.panels, at: index, logger: logger)
            case (.guest, _, let until?):
                try engine.switches.setGuest(until, in: &engine.config.panels, at: index, now: engine.clock.date, logger: logger)
            default:
                return logger.warning("site: \(change.kind.rawValue) = '\(change.value)' from \(change.desk) is not a switch this version knows; ignored")
            }
        } catch {
            logger.error("site: \(error.message)")
            guard error.applied else { return }
        }
        logger.notice("site: \(change.kind.rawValue) on \(change.panel) switched to \(change.value) at \(change.desk)"
                      + (change.operatorName.map { " by \($0)" } ?? "") + " (\(RFC3339.string(change.at)))")
        engine.publishPolicy(engine.config.panels[index])
    }
}
