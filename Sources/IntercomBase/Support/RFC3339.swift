import Foundation

/// Timestamps of events and journal entries.
public enum RFC3339 {
    /// RFC 3339 with milliseconds and the local offset, as a person in that time zone reads it.
    public static func string(_ date: Date) -> String {
        let local = LocalTime(date)
        let offset = local.offsetSeconds / 60
        let zone = offset == 0 ? "Z" : (offset < 0 ? "-" : "+") + LocalTime.padded(abs(offset) / 60, 2) + ":" + LocalTime.padded(abs(offset) % 60, 2)
        return local.date + "T" + local.clock + "." + LocalTime.padded(local.millisecond, 3) + zone
    }
}

extension RFC3339 {
    /// Reads what `string` writes (and RFC 3339 without the milliseconds); nil for anything else.
    public static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
