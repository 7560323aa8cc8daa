import Foundation
import IntercomBase
import IntercomCore
import Synchronization

/// A journal store in memory, for the engine's journal commands on fakes: entries given by the
/// test, and a ledger of what the engine marked in them.
package final class FakeJournalStore: JournalStore {
    private let state: Mutex<[JournalEntry]>
    /// Each `markHandled`: the entry and who.
    package let handled = Ledger<String>()

    package init(_ entries: [JournalEntry]) { state = Mutex(entries) }

    package func markHandled(_ row: Int64, by who: String, at time: Date) throws -> JournalEntry {
        try state.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.id == row }) else { throw JournalError.io("no entry \(row)") }
            entries[index].handledAt = time
            handled.append("\(row) by \(who)")
            return entries[index]
        }
    }

    package func noteCallBackFailed(_ row: Int64, why: String, by who: String) throws -> JournalEntry {
        guard let entry = try entry(row) else { throw JournalError.io("no entry \(row)") }
        return entry
    }

    package func entry(_ row: Int64) throws -> JournalEntry? { state.withLock { $0.first { $0.id == row } } }

    package func entries(_ query: JournalQuery) throws -> [JournalEntry] { state.withLock { $0 } }
}
