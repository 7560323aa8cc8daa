import Foundation
import IntercomBase
import Testing

/// The ends a person types (issue 38): one parser for `ctl guest`, `share --until` and
/// `settings auto_open=`; `now` and the zone are the test's, so no real clock is read.
@Suite struct UntilTimeParserTests {
    static let moscow = TimeZone(identifier: "Europe/Moscow") ?? TimeZone(secondsFromGMT: 3 * 3600) ?? .current
    /// 2026-12-07 19:30 in Moscow (16:30 UTC).
    static let now = Date(timeIntervalSince1970: 1_796_661_000)

    static func local(_ text: String) throws -> Date { try GuestTimeParser.parse(text, timeZone: moscow) }

    @Test func durationsTimesOfDayAndTomorrow() throws {
        let parse = { (text: String) throws -> Date in try UntilTimeParser.parse(text, now: Self.now, timeZone: Self.moscow) }
        #expect(try Self.local("2026-12-07 19:30") == Self.now, "the fixture's now")
        #expect(try parse("2h") == Self.now.addingTimeInterval(7200))
        #expect(try parse("30m") == Self.now.addingTimeInterval(1800))
        #expect(try parse("1d") == Self.now.addingTimeInterval(86400))
        // A time still ahead today is today's; one already past is tomorrow's.
        #expect(try parse("20:00") == Self.local("2026-12-07 20:00"))
        #expect(try parse("8:15") == Self.local("2026-12-08 08:15"))
        #expect(try parse("tomorrow 08:00") == Self.local("2026-12-08 08:00"))
        #expect(try parse("Tomorrow  08:00") == Self.local("2026-12-08 08:00"))
        #expect(try parse("today 18:00") == Self.local("2026-12-07 18:00"), "said today: the caller refuses a past end")
        #expect(try parse("2026-12-31 23:59") == Self.local("2026-12-31 23:59"))
        #expect(try parse("2026-12-31T20:59:00Z") == Date(timeIntervalSince1970: 1_798_750_740))
    }

    @Test func anythingElseSaysWhatToWrite() {
        for bad in ["", "soon", "25:00", "20:60", "tomorrow", "yesterday 08:00", "2x", "-2h", "0h", "tomorrow 08:00 pm"] {
            #expect(throws: ConfigValueError("'\(bad)' is not a time", fix: "write \(UntilTimeParser.forms)"), "\(bad)") {
                try UntilTimeParser.parse(bad, now: Self.now, timeZone: Self.moscow)
            }
        }
    }
}
