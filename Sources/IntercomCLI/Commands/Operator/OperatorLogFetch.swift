import Foundation
import IntercomBase
import IntercomOperator

/// Fetches an operator's event log live for `intercom log`, as journal entries (the form the
/// daemon's copy has), when the journal holds no fresh copy or `--operator` asks for it.
enum OperatorLogFetch {
    /// The log of every flat with one, for the days since `since` (default: the newest `defaultDays`
    /// days that have entries, so a plain `intercom log` costs a few requests, not a year's).
    static func fetch(_ op: OperatorConfig, _ client: OperatorClient, since: Date?, missedOnly: Bool,
                      defaultDays: Int = 7) async throws(OperatorError) -> [JournalEntry] {
        var result: [JournalEntry] = []
        // The server's day buckets are in its database's zone: with a day more at each end an
        // entry may come in two buckets, and is kept once (by its uuid).
        var seen = Set<String>()
        for flat in try await client.flats() where flat.hasPlog {
            var days = try await client.plogDays(flatId: flat.flatId).map(\.day).sorted()
            if let since {
                // Days are the operator's dates (grouped in its database's zone, which may not be
                // the zone its times are written in): a day back more covers any difference, and
                // days after it are all read.
                let first = OperatorTime.day(since.addingTimeInterval(-86400), timeZone: await client.timeZone())
                days = days.filter { $0 >= first }
            } else {
                days = Array(days.suffix(defaultDays))
            }
            for day in days {
                for entry in try await client.plog(flatId: flat.flatId, day: day) {
                    if let since, entry.time < since { continue }
                    if missedOnly && entry.event != .callMissed { continue }
                    if let uuid = entry.uuid, !seen.insert(uuid).inserted { continue }
                    result.append(entry.journalEntry(operator: op.name, flat: flat))
                }
            }
        }
        return result
    }
}
