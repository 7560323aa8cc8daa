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

    /// A desk is online while a session of its holds the desk's advisory lock: PostgreSQL's own
    /// liveness, as MQTT's will is the broker's. A process that ends frees it at once; a machine
    /// that vanishes, when the server's TCP keepalives give up (`PostgresTarget.keywords`). So no
    /// beat has to say a desk is there. Two int4 keys: this namespace, the desk's lower-case name
    /// hashed by the server.
    static let deskLockSpace = 0x1c0c_0de5

    /// `true` once the session holds the lock of the desk named `$1` (taken when it does not yet;
    /// never taken twice, as a session-level advisory lock counts each take). `false`: another
    /// session holds it (a second desk under that name, or this desk's old session the server has
    /// not closed yet); the next beat tries again.
    static let holdDesk = """
        CASE WHEN EXISTS (SELECT 1 FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'advisory'
                          AND classid = \(deskLockSpace) AND objid = (hashtext(lower($1))::bigint & 4294967295)::oid
                          AND objsubid = 2)
             THEN true ELSE pg_try_advisory_lock(\(deskLockSpace), hashtext(lower($1))) END
        """

    /// Whether the desk of the row `d` has a session that holds its lock now.
    static let deskConnected = """
        EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.classid = \(deskLockSpace)
                AND l.objid = (hashtext(lower(d.name))::bigint & 4294967295)::oid AND l.objsubid = 2
                AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))
        """

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
