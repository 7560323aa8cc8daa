import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A moment on the local wall clock, read once (`localtime_r`: the process's TZ, as people here
/// read the time), with the few spellings the program prints. Seven places had their own copy.
public struct LocalTime: Sendable, Equatable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Milliseconds past the second.
    public var millisecond: Int
    /// Seconds east of UTC.
    public var offsetSeconds: Int

    public init(_ date: Date = Date()) {
        // Whole microseconds first: a time read back from its own spelling (`….495Z` is a double a
        // hair below .495) must spell the same millisecond again.
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let millis = micros >= 0 ? micros / 1000 : (micros - 999) / 1000
        var whole = time_t(millis >= 0 ? millis / 1000 : (millis - 999) / 1000)
        var parts = tm()
        localtime_r(&whole, &parts)
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
        millisecond = Int(millis - Int64(whole) * 1000)
        offsetSeconds = Int(parts.tm_gmtoff)
    }

    /// `2026-12-01`
    public var date: String { Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2) }
    /// `13:05:09`
    public var clock: String { Self.padded(hour, 2) + ":" + Self.padded(minute, 2) + ":" + Self.padded(second, 2) }
    /// `2026-12-01 13:05:09` in one string (a journal listing makes thousands: no parts joined).
    public var dateAndClock: String {
        guard (0...9999).contains(year) else { return date + " " + clock }
        var text = [UInt8](repeating: 0, count: 19)
        func put(_ value: Int, _ width: Int, at start: Int) {
            var value = value
            for index in stride(from: start + width - 1, through: start, by: -1) {
                text[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, 4, at: 0); put(month, 2, at: 5); put(day, 2, at: 8)
        put(hour, 2, at: 11); put(minute, 2, at: 14); put(second, 2, at: 17)
        text[4] = UInt8(ascii: "-"); text[7] = UInt8(ascii: "-"); text[10] = UInt8(ascii: " ")
        text[13] = UInt8(ascii: ":"); text[16] = UInt8(ascii: ":")
        return String(decoding: text, as: UTF8.self)
    }

    /// `20261201-130509`, for file names that sort by time.
    public var fileStamp: String {
        Self.padded(year, 4) + Self.padded(month, 2) + Self.padded(day, 2) + "-" + Self.padded(hour, 2) + Self.padded(minute, 2) + Self.padded(second, 2)
    }

    /// `value` in decimal, zeros in front up to `width` digits (`%0Nd` for the non-negative numbers
    /// here). By hand: `String(format:)` goes through CoreFoundation's formatter, which was a third
    /// of `intercom log`'s time over 100 000 entries.
    package static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension LocalTime {
    /// The moment a local wall-clock reading names (`mktime`: the process's TZ, as `init` reads it), or
    /// nil for a reading that does not exist (February 30, 25:00): `mktime` would roll those over, so the
    /// fields it gives back must be the ones asked for. By hand rather than DateFormatter: a formatter
    /// loads ICU's locale and calendar data, which was most of a light command's start.
    public static func date(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Date? {
        seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second, reading: mktime)
            .map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// Seconds since 1970 of a wall-clock reading as `reading` takes it (`mktime`: local, `timegm`: UTC),
    /// or nil for one that does not exist: libc rolls those over, so the fields it gives back must be the
    /// ones asked for.
    package static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                                reading: (UnsafeMutablePointer<tm>) -> time_t) -> Int? {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
              (0...59).contains(minute), (0...59).contains(second) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        parts.tm_isdst = -1
        let stamp = reading(&parts)
        guard parts.tm_year == Int32(year - 1900), parts.tm_mon == Int32(month - 1), parts.tm_mday == Int32(day) else {
            return nil
        }
        return Int(stamp)
    }

    /// `YYYY-MM-DD`, `YYYY-MM-DD HH:MM` or `YYYY-MM-DDTHH:MM` read on the local clock; nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes.count == 10 || bytes.count == 16, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        guard bytes.count == 16 else { return date(year: year, month: month, day: day) }
        guard bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
              let hour = number(11..<13), let minute = number(14..<16) else { return nil }
        return date(year: year, month: month, day: day, hour: hour, minute: minute)
    }
}
