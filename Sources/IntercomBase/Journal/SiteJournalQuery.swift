import Foundation

/// The filters of the site's journal (`intercom log` on a site; `--desk NAME` narrows): the engine's
/// `SiteStore` and the light binary's read of the store (IntercomPostgres) take the same.
public struct SiteJournalQuery: Sendable, Equatable {
    public var since: Date?
    public var desk: String?
    public var panel: String?
    public var missedOnly: Bool
    /// Missed calls no desk has handled yet: the site's queue.
    public var unhandledOnly: Bool
    public var limit: Int?

    public init(since: Date? = nil, desk: String? = nil, panel: String? = nil, missedOnly: Bool = false,
                unhandledOnly: Bool = false, limit: Int? = nil) {
        (self.since, self.desk, self.panel, self.missedOnly, self.unhandledOnly, self.limit) =
            (since, desk, panel, missedOnly, unhandledOnly, limit)
    }
}
