import Foundation
import IntercomCoreFakes
import IntercomPhoneTestSupport
import Testing

/// The policy tests' clock: waits return when time is advanced to them, in deadline order, and
/// a cancelled wait leaves at once and is no longer pending.
@Suite(.removesTestFolders) struct ManualClockTests {
    @Test func waitsReturnWhenAdvancedToInDeadlineOrder() async throws {
        let clock = ManualClock()
        let woken = Ledger<Int>()
        let tasks = [3, 1, 2].map { seconds in
            Task {
                try await clock.sleep(for: .seconds(seconds))
                woken.append(seconds)
            }
        }
        try await clock.waitForSleepers(3)
        #expect(clock.pending == [.seconds(1), .seconds(2), .seconds(3)])
        clock.advance(by: .milliseconds(999))
        #expect(woken.count == 0)
        clock.advance(by: .milliseconds(1))
        try await woken.wait("the 1 s wait") { $0 == [1] ? true : nil }
        clock.advance(by: .seconds(5))
        for task in tasks { try await task.value }
        #expect(Set(woken.all) == [1, 2, 3])
        #expect(clock.date == ManualClock.epoch.addingTimeInterval(6))
        // A wait whose time has come returns without an advance.
        try await clock.sleep(until: clock.now, tolerance: nil)
    }

    @Test func aCancelledWaitLeavesAtOnce() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(60)) }
        try await clock.waitForSleeper(endingIn: .seconds(60))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.pending.isEmpty)
    }
}
