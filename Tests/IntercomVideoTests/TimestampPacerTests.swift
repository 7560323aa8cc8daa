import Testing
@testable import IntercomVideo

/// How frames are held back to their timestamps: the first anchors, a jump or a lag re-anchors.
@Suite struct TimestampPacerTests {
    let second: UInt64 = 1_000_000_000

    @Test func framesWaitForTheirTime() {
        var pacer = TimestampPacer()
        #expect(pacer.delay(for: 10.0, now: 100 * second) == 0)
        #expect(abs(pacer.delay(for: 10.04, now: 100 * second) - 0.04) < 1e-9)
        #expect(pacer.delay(for: 10.04, now: 100 * second + second / 10) == 0, "late frames go at once")
    }

    @Test func aJumpOrALagStartsAgainFromThere() {
        var pacer = TimestampPacer()
        _ = pacer.delay(for: 10, now: 100 * second)
        #expect(pacer.delay(for: 30, now: 100 * second) == 0, "a 20 s jump forward is not waited out")
        #expect(abs(pacer.delay(for: 30.5, now: 100 * second) - 0.5) < 1e-9, "anchored at the jump")
        #expect(pacer.delay(for: 31, now: 105 * second) == 0, "4 s behind: anchored again")
        #expect(abs(pacer.delay(for: 31.2, now: 105 * second) - 0.2) < 1e-9)
        #expect(pacer.delay(for: 2, now: 105 * second) == 0, "timestamps going back restart the clock")
    }
}
