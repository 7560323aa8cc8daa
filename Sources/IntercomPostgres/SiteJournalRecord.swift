import Foundation
import IntercomBase

/// One entry of the site's journal as the store holds it, without the engine's types: the light
/// `intercom log` prints these, and IntercomSite makes the engine's `SiteJournalEntry` of them.
public struct SiteJournalRecord: Sendable, Equatable {
    /// Who took a forked call (`answered` at a desk, `escalated` to a target) and when.
    public struct Claim: Sendable, Equatable {
        public var kind: String
        public var desk: String
        public var operatorName: String?
        public var target: String?
        public var at: Date
    }

    public var id: UUID
    public var desk: String
    public var operatorName: String?
    public var callID: String?
    public var rangAt: [String]
    public var claim: Claim?
    /// The desk's entry (`id` 0), with the site's `handledBy`/`handledAt`.
    public var entry: JournalEntry

    /// Rang and no desk took it.
    public var missed: Bool { entry.missed && claim == nil }

    /// As `intercom log --json` prints it at a desk of a site.
    public var json: JSONValue {
        SiteEntryJSON.entry(entry, siteID: id, desk: desk, operatorName: operatorName, callID: callID, rangAt: rangAt,
                            claim: claim.map { SiteEntryJSON.claim(kind: $0.kind, desk: $0.desk, operatorName: $0.operatorName,
                                                                   target: $0.target, at: $0.at) },
                            missed: missed)
    }
}
