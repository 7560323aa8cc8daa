import Foundation

/// Timestamps of events and journal entries.
public enum RFC3339 {
    /// RFC 3339 with milliseconds and the local offset, as a person in that time zone reads it.
    public static func string(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        var whole = time_t(seconds.rounded(.down))
        let millis = Int(((seconds - Double(whole)) * 1000).rounded(.down))
        var parts = tm()
        localtime_r(&whole, &parts)
        let offset = parts.tm_gmtoff / 60
        let zone = offset == 0 ? "Z" : String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 60, abs(offset) % 60)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03d", parts.tm_year + 1900, parts.tm_mon + 1,
                      parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec, millis) + zone
    }
}
