import Foundation
import IntercomBase

/// The journal shared with the site (issue 40): what the journal finished here goes to the site
/// through the link; a missed call handled here is handled at every desk, and one handled at
/// another desk leaves this desk's queue too. A lone desk has no link: nothing here does anything.
/// It runs on the engine (`isolated Intercom`).
struct SiteJournalFlow {
    /// `handled`/`callback` marked local row `row`: the site's entry leaves every desk's queue.
    func handledHere(row: Int64, by who: String, on engine: isolated Intercom) async {
        guard let link = engine.site.link else { return }
        do {
            guard let entry = try engine.missedCalls.journal().entry(row) else { return }
            await link.handledHere(entry, by: entry.handledBy ?? who)
        } catch {
            engine.logger.warning("site: entry \(row) was handled here but cannot be read back for the site: \(error)")
        }
    }

    /// Another desk (or this one, echoed by the feed) handled site entry `id`: this desk's own row of
    /// it leaves the local queue too, with who did it. Rows already handled are left as they are.
    func handled(_ id: UUID, by who: String, at time: Date, on engine: isolated Intercom) async {
        guard let link = engine.site.link, let row = await link.localRow(id) else { return }
        do {
            let journal = try engine.missedCalls.journal()
            guard let entry = try journal.entry(row), entry.handledAt == nil else { return }
            _ = try journal.markHandled(row, by: who, at: time)
            engine.logger.info("site: missed call \(row) handled by \(who) at another desk")
        } catch {
            engine.logger.warning("site: entry \(row), handled by \(who) at another desk, stays in this desk's queue: \(error)")
        }
    }
}
