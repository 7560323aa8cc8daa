import Foundation
import IntercomBase
import IntercomOperator

/// An entry of an operator's event log as `intercom log` shows it beside the local journal.
struct OperatorLogEntry: Sendable {
    var operatorName: String
    var flat: OperatorFlat
    var entry: PlogEntry

    var json: JSONValue {
        .object([
            ("kind", .string("operator_event")), ("time", .string(RFC3339.string(entry.time))),
            ("operator", .string(operatorName)), ("event", .string(entry.eventName)),
            ("door", .optional(entry.door)), ("flat", .string(flat.flatId)), ("address", .string(flat.address)),
            ("detail", .object(entry.detail.map { ($0.0, .string($0.1)) })),
            ("picture", .optional(entry.preview)), ("uuid", .optional(entry.uuid)),
        ])
    }

    /// TIME, PANEL (operator: door), CALLER (who), OUTCOME (what), DURATION, PICTURE.
    var cells: [String] {
        let who = entry.detail.first { ["phone", "phoneFrom", "key", "code", "vehicle", "face", "faceId"].contains($0.0) }
        return [LogCommand.localTime(entry.time), "\(operatorName): \(entry.door ?? "-")", who.map(\.1) ?? "-",
                entry.eventText, "", entry.preview ?? ""]
    }

    /// The log of every flat with one, for the days since `since` (default: the newest `defaultDays`
    /// days that have entries, so a plain `intercom log` costs a few requests, not a year's).
    static func fetch(_ op: OperatorConfig, _ client: OperatorClient, since: Date?, missedOnly: Bool,
                      defaultDays: Int = 7) async throws(OperatorError) -> [OperatorLogEntry] {
        var result: [OperatorLogEntry] = []
        for flat in try await client.flats() where flat.hasPlog {
            var days = try await client.plogDays(flatId: flat.flatId).map(\.day).sorted()
            if let since {
                // Days are the operator's dates; a day that ends after `since` may hold newer entries.
                let first = OperatorTime.day(since, timeZone: await client.timeZone())
                days = days.filter { $0 >= first }
            } else {
                days = Array(days.suffix(defaultDays))
            }
            for day in days {
                for entry in try await client.plog(flatId: flat.flatId, day: day) {
                    if let since, entry.time < since { continue }
                    if missedOnly && entry.event != .callMissed { continue }
                    result.append(OperatorLogEntry(operatorName: op.name, flat: flat, entry: entry))
                }
            }
        }
        return result
    }
}
