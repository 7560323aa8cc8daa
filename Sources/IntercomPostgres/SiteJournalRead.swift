import Foundation
import IntercomBase

/// The site's journal read from its store: the one query `intercom log` at a desk of a site runs
/// (in the light binary, with no engine and no liblinphone) and the engine's store answers with.
public enum SiteJournalRead {
    /// `SELECT … extract(epoch from at)` names, for the claim columns of a call or an entry.
    public static let claimColumns = "claim_kind, claim_desk, claim_operator, claim_target, extract(epoch from claim_at)::float8 AS claim_at"

    /// The columns `record(_:at:)` reads.
    public static let columns = "id, desk, operator, call_id, rang_at, \(claimColumns), body, handled_by, "
        + "extract(epoch from handled_at)::float8 AS handled_at"

    /// `intercom log` at a desk of a site: one connection, the schema's version checked (never
    /// migrated: a reader must not change the site), one query, the connection closed. A schema this
    /// program does not know (none yet, older, newer) is a `.schema` error saying what to run.
    public static func read(_ settings: SiteConfig, _ filter: SiteJournalQuery) async throws(PostgresError) -> [SiteJournalRecord] {
        let connection = PostgresConnection(target: try PostgresTarget(settings: settings))
        do {
            try await SiteSchema.product.require(connection)
            let records = try await records(filter, on: connection)
            await connection.close()
            return records
        } catch {
            await connection.close()
            throw error
        }
    }

    /// The newest `filter.limit` entries that pass the filter, oldest first.
    public static func records(_ filter: SiteJournalQuery, on connection: PostgresConnection) async throws(PostgresError) -> [SiteJournalRecord] {
        let rows = try await connection.query(recordsStatement, parameters(filter))
        return rows.rows.indices.compactMap { record(rows, at: $0) }
    }

    /// The newest entries that pass the filter, oldest first. `--desk` is matched on `lower(desk)`,
    /// which the index `site_journal_desk` (schema version 2) serves in the order read.
    static let recordsStatement = """
        SELECT * FROM (
            SELECT \(columns), seq, at
            FROM site_journal
            WHERE ($1::float8 IS NULL OR at >= to_timestamp($1::float8))
              AND ($2::text IS NULL OR lower(desk) = lower($2)) AND ($3::text IS NULL OR lower(panel) = lower($3))
              AND (NOT $4::boolean OR missed) AND (NOT $5::boolean OR (missed AND handled_at IS NULL))
            ORDER BY at DESC, seq DESC LIMIT $6::bigint) AS newest
        ORDER BY at, seq
        """

    static func parameters(_ filter: SiteJournalQuery) -> [String?] {
        [filter.since.map { String($0.timeIntervalSince1970) }, filter.desk, filter.panel,
         filter.missedOnly ? "true" : "false", filter.unhandledOnly ? "true" : "false", filter.limit.map(String.init)]
    }

    /// Row `index` of a statement that selected `columns`; nil for a row whose body is not an entry.
    public static func record(_ rows: PostgresRows, at index: Int) -> SiteJournalRecord? {
        guard let id = rows.value("id", at: index).flatMap(uuid),
              let desk = rows.value("desk", at: index),
              let body = rows.value("body", at: index).flatMap(JSONValue.parse),
              var entry = JournalEntry(json: body) else { return nil }
        entry.id = 0
        entry.handledBy = rows.value("handled_by", at: index)
        entry.handledAt = seconds(rows.value("handled_at", at: index))
        var rangAt: [String] = []
        // Most entries rang at no desk ('[]': nothing to parse).
        if let list = rows.value("rang_at", at: index), list != "[]", case .array(let desks)? = JSONValue.parse(list) {
            rangAt = desks.compactMap(\.stringValue)
        }
        return SiteJournalRecord(id: id, desk: desk, operatorName: rows.value("operator", at: index),
                                 callID: rows.value("call_id", at: index), rangAt: rangAt, claim: claim(rows, at: index),
                                 entry: entry)
    }

    /// The claim columns of row `index`; nil when the call was not claimed.
    public static func claim(_ rows: PostgresRows, at index: Int) -> SiteJournalRecord.Claim? {
        guard let kind = rows.value("claim_kind", at: index), let desk = rows.value("claim_desk", at: index),
              let at = seconds(rows.value("claim_at", at: index)) else { return nil }
        return SiteJournalRecord.Claim(kind: kind, desk: desk, operatorName: rows.value("claim_operator", at: index),
                                       target: rows.value("claim_target", at: index), at: at)
    }

    /// PostgreSQL's spelling of a uuid (`8-4-4-4-12` hex digits) read by hand: `UUID(uuidString:)`
    /// goes through sscanf, a twentieth of a site `log`'s time.
    static func uuid(_ text: String) -> UUID? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8?
        for (offset, character) in text.utf8.enumerated() {
            switch offset {
            case 8, 13, 18, 23:
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            default: break
            }
            guard let nibble = HexDigit.value(character) else { return nil }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard bytes.count == 16, high == nil else { return nil }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// `extract(epoch from …)::float8` back to a date.
    static func seconds(_ text: String?) -> Date? { text.flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) }
}
