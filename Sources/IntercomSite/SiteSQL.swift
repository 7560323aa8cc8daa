import Foundation
import IntercomBase
import IntercomCore

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
    static let claimColumns = "claim_kind, claim_desk, claim_operator, claim_target, extract(epoch from claim_at)::float8 AS claim_at"

    static func claim(_ rows: PostgresRows, at index: Int) -> SiteCallClaim? {
        guard let kind = rows.value("claim_kind", at: index).flatMap(SiteCallClaim.Kind.init(rawValue:)),
              let desk = rows.value("claim_desk", at: index), let at = date(rows.value("claim_at", at: index)) else { return nil }
        return SiteCallClaim(kind: kind, desk: desk, operatorName: rows.value("claim_operator", at: index),
                             target: rows.value("claim_target", at: index), at: at)
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
