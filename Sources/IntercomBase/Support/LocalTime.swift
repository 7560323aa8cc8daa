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
