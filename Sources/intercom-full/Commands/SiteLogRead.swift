import IntercomBase
import IntercomCLI
import IntercomCore
import IntercomSite

/// `intercom log` at a desk of a site: the site's journal from its PostgreSQL store, one
/// connection for the one query, closed before the table is printed.
enum SiteLogRead {
    @Sendable static func read(_ site: SiteConfig, _ query: JournalQuery, _ desk: String?) async throws(SiteLogFailure) -> [SiteLogRow] {
        let target: PostgresTarget
        do { target = try PostgresTarget(settings: site) } catch { throw .config(error.message) }
        let store = PostgresSiteStore(target: target)
        let filter = SiteJournalQuery(since: query.since, desk: desk, panel: query.panel, missedOnly: query.missedOnly,
                                      unhandledOnly: query.unhandledOnly, limit: query.limit)
        let entries: [SiteJournalEntry]
        do {
            entries = try await store.entries(filter)
        } catch let error as PostgresError where error.kind == .settings || error.kind == .schema {
            await store.close()
            throw .config(error.message)
        } catch {
            await store.close()
            throw .unreachable("\(error)")
        }
        await store.close()
        return entries.map { SiteLogRow(entry: $0.entry, desk: $0.desk, operatorName: $0.operatorName, json: $0.json) }
    }
}
