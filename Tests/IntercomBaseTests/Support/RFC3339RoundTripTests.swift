import Foundation
import Testing
@testable import IntercomBase

/// A time read back from its own spelling spells the same again: files and the socket carry times
/// as RFC 3339 text, and `….495Z` parses to a double a hair below .495.
@Suite struct RFC3339RoundTripTests {
    @Test func everyMillisecondSurvivesItsOwnSpelling() throws {
        let base = 1_764_668_911.0
        for ms in 0..<1000 {
            let date = Date(timeIntervalSince1970: base + Double(ms) / 1000 + 0.0004)
            let text = RFC3339.string(date)
            let again = try #require(RFC3339.date(text), "\(text) does not parse")
            #expect(RFC3339.string(again) == text)
        }
    }

    @Test func aTimeBeforeTheEpochKeepsItsSecond() {
        let text = RFC3339.string(Date(timeIntervalSince1970: -0.25))
        #expect(text.contains(":59.750"), "\(text)")
    }

    /// The hand reader of what `string` writes agrees with Foundation's reader, and leaves the rest to it.
    @Test func theWrittenSpellingIsReadAsFoundationReadsIt() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for text in ["2026-12-07T19:30:45.123Z", "2024-02-29T00:00:00.000+03:00", "1969-12-31T23:59:59.750Z",
                     "2026-01-01T05:06:07.999-09:30", "2000-03-01T12:00:00.001+14:00"] {
            #expect(RFC3339.date(text) == formatter.date(from: text), "\(text)")
        }
        #expect(RFC3339.date("2026-12-07T19:30:45Z") == Date(timeIntervalSince1970: 1_796_671_845))
        #expect(RFC3339.date("2026-12-07T19:30:45+01:00") == Date(timeIntervalSince1970: 1_796_671_845 - 3600))
        // Out-of-range fields are left to Foundation, which rolls them over as it always did.
        #expect(RFC3339.written("2026-02-30T00:00:00Z") == nil && RFC3339.written("2026-12-07T24:00:00Z") == nil)
        for text in ["2026-12-07 19:30:45Z", "2026-12-07T19:30:45", "x"] {
            #expect(RFC3339.date(text) == nil, "\(text)")
        }
    }
}
