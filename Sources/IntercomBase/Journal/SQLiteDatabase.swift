internal import CSQLite
import Foundation

/// The few SQLite calls the journal needs: open, run a statement with bound values, read rows.
/// Not thread-safe by itself; `Journal` serialises access.
final class SQLiteDatabase {
    enum Value: Sendable, Equatable {
        case null, integer(Int64), real(Double), text(String)
    }

    private var handle: OpaquePointer?
    private let sqlite: intercom_sqlite
    let path: String

    init(path: String, create: Bool) throws(JournalError) {
        self.path = path
        switch SQLiteLibrary.loaded {
        case .success(let functions): sqlite = functions.c
        case .failure(let error): throw .database("open \(path)", error.description)
        }
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite.open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK else {
            let message = handle.flatMap { sqlite.errmsg($0) }.map { String(cString: $0) } ?? "code \(code)"
            _ = sqlite.close(handle)
            handle = nil
            throw .database("open \(path)", message)
        }
        // A reader (intercom log) and the daemon may meet; wait rather than fail.
        _ = sqlite.busy_timeout(handle, 3000)
    }

    deinit { _ = sqlite.close(handle) }

    /// SQLITE_TRANSIENT: SQLite copies bound text before the Swift string goes away.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Runs one statement; returns every row it yields.
    @discardableResult
    func run(_ sql: String, _ values: [Value] = []) throws(JournalError) -> [[Value]] {
        var statement: OpaquePointer?
        guard sqlite.prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw .database(sql, errorMessage)
        }
        defer { _ = sqlite.finalize(statement) }
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            switch value {
            case .null: _ = sqlite.bind_null(statement, index)
            case .integer(let n): _ = sqlite.bind_int64(statement, index, n)
            case .real(let d): _ = sqlite.bind_double(statement, index, d)
            case .text(let s): _ = sqlite.bind_text(statement, index, s, -1, Self.transient)
            }
        }
        var rows: [[Value]] = []
        while true {
            let code = sqlite.step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw .database(sql, errorMessage) }
            var row: [Value] = []
            for column in 0..<sqlite.column_count(statement) {
                switch sqlite.column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.integer(sqlite.column_int64(statement, column)))
                case SQLITE_FLOAT: row.append(.real(sqlite.column_double(statement, column)))
                case SQLITE_NULL: row.append(.null)
                default: row.append(.text(sqlite.column_text(statement, column).map { String(cString: $0) } ?? ""))
                }
            }
            rows.append(row)
        }
        return rows
    }

    var lastInsertID: Int64 { sqlite.last_insert_rowid(handle) }

    /// SQLite's words for the last failure on this connection.
    private var errorMessage: String { sqlite.errmsg(handle).map { String(cString: $0) } ?? "unknown SQLite error" }
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
