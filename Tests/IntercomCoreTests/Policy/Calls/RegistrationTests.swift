import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import Testing

/// The registration as its own part (`Registration`): the back-off of its retry, one retry loop
/// at a time, and a success that resets both; then the engine's retry loop on the manual clock.
@Suite struct RegistrationTests {
    @Test func retriesDoubleFromOneSecondToAMinute() {
        var registration = Registration()
        let started = registration.startRetrying(), again = registration.startRetrying()
        #expect(started && !again, "one retry loop at a time")
        let delays = (0..<9).map { _ in registration.nextDelay() }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        registration.note(account: "sip:desk@192.0.2.1", state: .registered, reason: nil)
        #expect(registration.isRegistered && !registration.retrying && registration.attempt == 0)
        let delay = registration.nextDelay()
        #expect(delay == 1)
    }

    @Test func theStateIsTheLastReport() {
        var registration = Registration()
        #expect(registration.status == nil)
        registration.note(account: "sip:desk@192.0.2.1", state: .failed, reason: "timeout")
        #expect(!registration.isRegistered)
        #expect(registration.status == .init(account: "sip:desk@192.0.2.1", state: "failed", reason: "timeout"))
        let started = registration.startRetrying()
        registration.retryEnded()
        #expect(started)
        #expect(!registration.retrying)
    }

    /// A retry that fails without a new `failed` event keeps the loop going, a minute apart at most.
    @Test func theEngineKeepsRetryingAtTheLongestDelay() async throws {
        try await EngineRig.run { rig in
            rig.phone.report(.registration(account: "sip:desk@192.0.2.1", state: .failed, reason: "timeout"))
            for (attempt, delay) in [1, 2, 4, 8, 16, 32, 60, 60].enumerated() {
                try await rig.clock.waitForSleeper(endingIn: .seconds(delay))
                rig.clock.advance(by: .seconds(delay))
                try await rig.phone.requests.wait("refresh #\(attempt + 1)") { $0.count == attempt + 1 ? true : nil }
            }
            #expect(rig.phone.requests.all == Array(repeating: .refreshRegistration, count: 8))
        }
    }
}
