import Foundation

/// The filters of `intercom log`.
public struct JournalQuery: Sendable, Equatable {
    public var since: Date?
    public var panel: String?
    public var missedOnly: Bool
    /// Missed calls nobody has handled yet (`Journal.markHandled`): the desk's queue of calls to return.
    public var unhandledOnly: Bool = false
    /// Only the entry with this id.
    public var entry: Int64?
    /// The newest N entries (still printed oldest first).
    public var limit: Int?
    /// Only the copy of this operator's event log.
    public var operatorName: String?
    /// Whether the copies of the operators' event logs are included.
    public var operatorEvents: Bool

    public init(since: Date? = nil, panel: String? = nil, missedOnly: Bool = false, limit: Int? = nil,
                operatorName: String? = nil, operatorEvents: Bool = true, unhandledOnly: Bool = false, entry: Int64? = nil) {
        self.since = since
        self.panel = panel
        self.missedOnly = missedOnly
        self.limit = limit
        self.operatorName = operatorName
        self.operatorEvents = operatorEvents
        self.unhandledOnly = unhandledOnly
        self.entry = entry
    }

    /// `1h`, `30m`, `2d`, `1w` back from `now`, or a local `YYYY-MM-DD` (midnight) / `YYYY-MM-DD HH:MM`.
    public static func parseSince(_ text: String, now: Date = Date()) -> Date? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604_800]
        if let unit = text.last, let seconds = units[unit], let amount = Double(text.dropLast()), amount >= 0 {
            return now.addingTimeInterval(-amount * seconds)
        }
        return LocalTime.parse(text)
    }
}
