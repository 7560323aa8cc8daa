/// A statement's answer in text form (every value as PostgreSQL prints it, NULL as nil): the site's
/// rows are few and small, and the SQL casts what it needs (`$1::bigint`, `extract(epoch from at)`).
public struct PostgresRows: Sendable, Equatable {
    public let columns: [String]
    public let rows: [[String?]]
    /// Rows an INSERT, UPDATE or DELETE touched (PQcmdTuples), 0 for others.
    public let affected: Int

    public init(columns: [String] = [], rows: [[String?]] = [], affected: Int = 0) {
        self.columns = columns
        self.rows = rows
        self.affected = affected
    }

    public var count: Int { rows.count }

    /// The value of `column` in row `index`; nil for NULL or a column the statement did not return.
    public func value(_ column: String, at index: Int = 0) -> String? {
        guard rows.indices.contains(index), let position = columns.firstIndex(of: column) else { return nil }
        return rows[index][position]
    }
}

/// What a LISTENing connection hears besides answers.
public enum PostgresNotice: Sendable, Equatable {
    /// A NOTIFY on a channel this connection listens to.
    case notification(channel: String, payload: String)
    /// The connection broke; notifications are lost until `resumed`.
    case lost(PostgresError)
    /// Connected again and listening: what changed meanwhile must be read again.
    case resumed
}
