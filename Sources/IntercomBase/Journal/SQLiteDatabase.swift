import CSQLite
import Foundation

/// The few SQLite calls the journal needs: open, run a statement with bound values, read rows.
/// Not thread-safe by itself; `Journal` serialises access.
final class SQLiteDatabase {
    enum Value: Sendable, Equatable {
        case null, integer(Int64), real(Double), text(String)
    }

    private var handle: OpaquePointer?
    let path: String

    init(path: String, create: Bool) throws(JournalError) {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(code)"
            sqlite3_close(handle)
            handle = nil
            throw .database("open \(path)", message)
        }
        // A reader (intercom log) and the daemon may meet; wait rather than fail.
        sqlite3_busy_timeout(handle, 3000)
    }

    deinit { sqlite3_close(handle) }

    /// SQLITE_TRANSIENT: SQLite copies bound text before the Swift string goes away.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Runs one statement; returns every row it yields.
    @discardableResult
    func run(_ sql: String, _ values: [Value] = []) throws(JournalError) -> [[Value]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw .database(sql, String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            switch value {
            case .null: sqlite3_bind_null(statement, index)
            case .integer(let n): sqlite3_bind_int64(statement, index, n)
            case .real(let d): sqlite3_bind_double(statement, index, d)
            case .text(let s): sqlite3_bind_text(statement, index, s, -1, Self.transient)
            }
        }
        var rows: [[Value]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw .database(sql, String(cString: sqlite3_errmsg(handle))) }
            var row: [Value] = []
            for column in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(statement, column)))
                case SQLITE_NULL: row.append(.null)
                default: row.append(.text(String(cString: sqlite3_column_text(statement, column))))
                }
            }
            rows.append(row)
        }
        return rows
    }

    var lastInsertID: Int64 { sqlite3_last_insert_rowid(handle) }
}

extension SQLiteDatabase.Value {
    var text: String? { if case .text(let s) = self { s } else { nil } }
    var double: Double? {
        switch self {
        case .real(let d): d
        case .integer(let n): Double(n)
        default: nil
        }
    }
    var int: Int64? { if case .integer(let n) = self { n } else { nil } }
    static func optional(_ s: String?) -> Self { s.map { .text($0) } ?? .null }
}
