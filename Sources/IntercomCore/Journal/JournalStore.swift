import Foundation
import IntercomBase

/// What the engine reads and marks in the journal: the missed-call queue (`handled`, `callBack`)
/// and `ctl journal`. The SQLite `Journal` the daemon keeps is the one store today; a site's shared
/// store (issue 40) conforms without the missed-call commands changing. Only what the engine uses:
/// the recorder writes through `Journal` itself.
public protocol JournalStore: Sendable {
    /// Takes missed call `row` out of the queue, noting who did and when; the entry as it is now.
    @discardableResult
    func markHandled(_ row: Int64, by who: String, at time: Date) throws -> JournalEntry
    /// Notes on missed call `row` a call back that reached nobody; it stays in the queue.
    @discardableResult
    func noteCallBackFailed(_ row: Int64, why: String, by who: String) throws -> JournalEntry
    /// Entry `row`, or nil when there is none.
    func entry(_ row: Int64) throws -> JournalEntry?
    /// The entries `query` asks for, as `intercom log` lists them.
    func entries(_ query: JournalQuery) throws -> [JournalEntry]
}

extension Journal: JournalStore {}
