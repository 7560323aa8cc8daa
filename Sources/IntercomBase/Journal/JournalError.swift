/// Why the journal could not be opened, written or read.
public enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    case database(String, String)
    case noJournal(String)
    case io(String)

    public var description: String {
        switch self {
        case .database(let what, let message): "journal database error (\(what.prefix(60))): \(message)"
        case .noJournal(let path): "no journal at \(path) yet: it is written by 'intercom daemon'"
        case .io(let message): "journal: \(message)"
        }
    }
}
