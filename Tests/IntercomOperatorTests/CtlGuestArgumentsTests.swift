import Foundation
import Testing
import IntercomBase
@testable import IntercomCLI

/// `intercom ctl guest` takes the ends `share --until` takes (issue 38): 2h, 20:00,
/// tomorrow 08:00 (quoted or not), a date, or off; a past end or a word it cannot read is a
/// usage error naming the forms. The parser's own cases: UntilTimeParserTests.
@Suite struct CtlGuestArgumentsTests {
    static func until(_ words: [String]) throws -> Result<Date?, UsageError> {
        let args = try ParsedArguments.parse(words, options: CtlCommand.spec.options, maxPositionals: CtlCommand.spec.maxPositionals,
                                             command: "ctl")
        return CtlCommand.makeRequest(args).map { request in
            if case .command(.setGuest(_, let until)) = request.action { until } else { nil }
        }
    }

    @Test func durationsAndTimesOfDay() throws {
        let before = Date()
        let inTwoHours = try #require(try Self.until(["guest", "2h", "--panel", "gate"]).get())
        #expect(abs(inTwoHours.timeIntervalSince(before) - 7200) < 60, "\(inTwoHours)")
        let twoWords = try Self.until(["guest", "tomorrow", "08:00"]).get()
        let oneWord = try Self.until(["guest", "tomorrow 08:00"]).get()
        #expect(twoWords != nil && twoWords == oneWord)
        #expect(try Self.until(["guest", "tomorrow 08:00"]).get() == UntilTimeParser.parse("tomorrow 08:00", now: Date()))
        #expect(try Self.until(["guest", "20:00"]).get().map { $0 > Date() } == true)
        #expect(try Self.until(["guest", "off"]).get() == nil)
    }

    @Test func aWordItCannotReadOrAPastEndSaysWhatToWrite() throws {
        guard case .failure(let unreadable) = try Self.until(["guest", "soon"]) else { Issue.record("accepted 'soon'"); return }
        #expect(unreadable.message == "ctl guest: 'soon' is not a time; write \(UntilTimeParser.forms)", "\(unreadable.message)")
        guard case .failure(let past) = try Self.until(["guest", "2020-01-01 10:00"]) else { Issue.record("accepted a past end"); return }
        #expect(past.message == "ctl guest: '2020-01-01 10:00' is in the past; give a later end, or off", "\(past.message)")
        guard case .failure(let extra) = try Self.until(["guest", "off", "now"]) else { Issue.record("accepted 'off now'"); return }
        #expect(extra.message.contains("unexpected argument 'now'"), "\(extra.message)")
    }
}
