import Foundation
import IntercomBase
import IntercomCore
import IntercomPostgres

/// How the store's values cross to PostgreSQL as text parameters and back: times as seconds since
/// 1970 (`to_timestamp($n::float8)` in, `extract(epoch from …)::float8` out), booleans as `t`/`f`.
enum SiteSQL {
    static func time(_ date: Date) -> String { String(date.timeIntervalSince1970) }
    static func time(orNull date: Date?) -> String? { date.map { time($0) } }

    static func date(_ text: String?) -> Date? { text.flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) }

    static func flag(_ value: Bool) -> String { value ? "true" : "false" }

    /// The NOTIFY channel every desk listens on; payloads are `KIND:ID` only (the row is read again).
    static let channel = "intercom_site"

    /// `SELECT … extract(epoch from at)` names, for the claim columns of a call or an entry.
    static let claimColumns = SiteJournalRead.claimColumns

    static func claim(_ rows: PostgresRows, at index: Int) -> SiteCallClaim? {
        SiteJournalRead.claim(rows, at: index).flatMap(SiteCallClaim.init)
    }

    static func claimParameters(_ claim: SiteCallClaim?) -> [String?] {
        [claim?.kind.rawValue, claim?.desk, claim?.operatorName, claim?.target, time(orNull: claim?.at)]
    }

    /// The store's refusals the engine tells apart: a server it cannot reach is `unreachable`.
    static func engineError(_ error: PostgresError) -> any Error {
        switch error.kind {
        case .connect, .lost: SiteStoreError.unreachable(error.message)
        case .settings, .statement, .schema: error
        }
    }
}

extension SiteCallClaim {
    /// The engine's claim of the store's; nil for a kind this program does not know.
    init?(_ claim: SiteJournalRecord.Claim) {
        guard let kind = Kind(rawValue: claim.kind) else { return nil }
        self.init(kind: kind, desk: claim.desk, operatorName: claim.operatorName, target: claim.target, at: claim.at)
    }
}

extension SiteJournalEntry {
    /// The engine's entry of the store's (a claim of a kind this program does not know is left out).
    init(_ record: SiteJournalRecord) {
        self.init(id: record.id, desk: record.desk, operatorName: record.operatorName, callKey: record.callID.map(SiteCallKey.init),
                  rangAt: record.rangAt, claim: record.claim.flatMap(SiteCallClaim.init), entry: record.entry)
    }
}
