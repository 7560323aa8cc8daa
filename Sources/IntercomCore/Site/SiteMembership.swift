import Foundation
import IntercomBase

/// The engine's site part (issue 40): this desk's link to its site while `runSite` runs, and what
/// `ctl status` says of the site. A lone desk never joins: `link` stays nil and the site's flows
/// (`SiteFlow`, `SiteCallFlow`, `SiteJournalFlow`) do nothing.
struct SiteMembership {
    /// Set by `joinSite` before the engine starts, so no command meets an engine not in its site yet.
    var link: SiteLink?
    /// Who switched what when at the site, and the outage if one is on.
    var seen = SiteSeen()
}

/// What the engine keeps of the site for `ctl status`: the latest switch per panel and kind, made
/// here or at another desk, and why the store does not answer during an outage.
struct SiteSeen {
    var switches: [String: SiteSwitchChange] = [:]
    var unreachable: String?
    /// This desk's switches made while the site was unreachable that a later change at another desk replaced.
    var lost: [SiteSwitchChange] = []
    /// Another connection holds this desk's name at the site (a second desk configured under it).
    var nameTaken = false

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
