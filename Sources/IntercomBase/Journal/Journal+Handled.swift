import Foundation

/// Missed calls are a queue, not a log line (issue 25): each missed call waits until someone at
/// the desk handles it — calls the panel or the flat back, or decides nothing is needed — and the
/// journal keeps when and who. `intercom log --unhandled` lists the queue.
extension Journal {
    /// When and by whom a missed call was handled (migrated in by `init`; both NULL while it
    /// waits), and why its last call back reached nobody.
    static let handledColumns = ["handled_at", "handled_by", "callback_failed"]

    /// A call that rang here and nobody talked to: not one answered at another desk, nor one we placed.
    static let missedCall = "(kind = 'call' AND answered_by IS NULL AND outcome IS NOT NULL "
        + "AND outcome != 'answered_elsewhere' AND direction IS NOT 'outgoing')"

    /// Marks missed call `row` handled by `who` (a person, or `key`/`ctl` and a person); returns
    /// the entry as it is now. A call handled before keeps its first handler: handling it again
    /// is no error, and says who did. Fails for a row that is not a missed call.
    @discardableResult
    public func markHandled(_ row: Int64, by who: String, at time: Date = Date()) throws(JournalError) -> JournalEntry {
        let who = who.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !who.isEmpty else { throw .io("say who handled entry \(row)") }
        try locked { db throws(JournalError) in
            let found = try db.run("SELECT \(Self.missedCall) FROM entries WHERE id = ?", [.integer(row)])
            guard let isMissed = found.first?.first?.int else {
                throw .io("no entry \(row); 'intercom log --unhandled --json' lists the missed calls with their ids")
            }
            guard isMissed != 0 else {
                throw .io("entry \(row) is not a missed call; 'intercom log --unhandled' lists those")
            }
            try db.run("UPDATE entries SET handled_at = ?, handled_by = ? WHERE id = ? AND handled_by IS NULL",
                       [.real(time.timeIntervalSince1970), .text(who), .integer(row)])
        }
        guard let entry = try entry(row) else { throw .io("no entry \(row)") }
        return entry
    }

    /// A call back of missed call `row` reached nobody (busy, refused, no answer): the entry stays
    /// in the queue, and says why and who tried. A later failure replaces the note; a call
    /// already handled keeps its handler and gains nothing.
    @discardableResult
    public func noteCallBackFailed(_ row: Int64, why: String, by who: String) throws(JournalError) -> JournalEntry {
        _ = try run("UPDATE entries SET callback_failed = ? WHERE id = ? AND handled_by IS NULL",
                    [.text("\(why), by \(who)"), .integer(row)])
        guard let entry = try entry(row) else { throw .io("no entry \(row)") }
        return entry
    }

    /// One entry by its id.
    public func entry(_ row: Int64) throws(JournalError) -> JournalEntry? {
        try entries(JournalQuery(entry: row)).first
    }
}
