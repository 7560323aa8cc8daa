@testable import IntercomBase
import Testing
import IntercomTestSupport

@Suite struct LogThrottleTests {
    @Test func oneLinePerIntervalWithTheCountInBetween() {
        var throttle = LogThrottle(every: .seconds(10))
        let start = ContinuousClock.now
        #expect(throttle.admit(now: start) == 1, "the first occurrence is logged at once")
        #expect(throttle.admit(now: start + .seconds(3)) == nil)
        #expect(throttle.admit(4, now: start + .seconds(9)) == nil)
        #expect(throttle.admit(now: start + .seconds(10)) == 6, "five held back, and this one")
        #expect(throttle.admit(now: start + .seconds(11)) == nil)
    }
}
