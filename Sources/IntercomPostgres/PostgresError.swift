/// Whatever went wrong with the site's database, as one line a user can act on. libpq's own words
/// are kept (they name the host, the role, the relation) but folded onto one line.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The settings cannot be used (a password file's mode, the TLS rule): nothing was sent.
        case settings
        /// No connection could be made (refused, authentication, TLS).
        case connect
        /// The connection broke during a request; the next request connects afresh.
        case lost
        /// The server refused a statement (a constraint, a syntax error, a missing table).
        case statement
        /// The database's schema is not one this program can use.
        case schema
    }

    public let kind: Kind
    public let message: String
    /// PostgreSQL's SQLSTATE for a refused statement (`23505`: a unique key), else nil.
    public let sqlState: String?

    public init(_ kind: Kind, _ message: String, sqlState: String? = nil) {
        self.kind = kind
        self.message = Self.oneLine(message)
        self.sqlState = sqlState
    }

    public var description: String { message }

    /// libpq's messages run over several lines (`connection to server … failed: …\n\tIs the server
    /// running…?`, `ERROR:  …\nLINE 1: …`): their lines trimmed, joined with "; ", blanks collapsed.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
    }
}
