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
        // What `string` writes is read by hand: a formatter made per call cost a millisecond, which
        // a site's `log` of a few thousand entries paid per entry. Anything else goes to Foundation.
        if let date = written(text) { return date }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

extension RFC3339 {
    /// `YYYY-MM-DDTHH:MM:SS[.mmm](Z|±HH:MM)`, as `string` writes it; nil for any other spelling.
    static func written(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        func byte(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        guard byte(4) == 45, byte(7) == 45, byte(10) == 84, byte(13) == 58, byte(16) == 58,
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...28).contains(day) || day <= daysIn(month, of: year),
              day >= 1, hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var milliseconds = 0
        if byte(index) == 46 {
            guard let fraction = number(index + 1, 3) else { return nil }
            milliseconds = fraction
            index += 4
        }
        var offset = 0
        if byte(index) == 90, index + 1 == bytes.count {
            offset = 0
        } else if let sign = byte(index), sign == 43 || sign == 45, index + 6 == bytes.count, byte(index + 3) == 58,
                  let hours = number(index + 1, 2), let minutes = number(index + 4, 2), hours < 24, minutes < 60 {
            offset = (sign == 45 ? -1 : 1) * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000)
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a civil date (proleptic Gregorian; Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
