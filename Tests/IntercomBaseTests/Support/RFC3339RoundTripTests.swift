import Foundation
import Testing
import IntercomBase

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
}
