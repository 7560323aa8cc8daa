import Foundation
import IntercomBase
import IntercomPhone

extension Intercom {
    /// liblinphone gives up after a failed REGISTER until its next refresh; we retry sooner,
    /// 1 s doubling to 60 s, and keep retrying until a `registered` arrives (a retry that
    /// fails without a new `failed` event must not end the retries).
    func scheduleRegistrationRetry(_ phone: any PhoneService) {
        guard !registrationRetry.running else { return }
        registrationRetry.running = true
        let clock = clock
        tasks.start(Self.registrationRetrySlot) {
            while !Task.isCancelled {
                let delay = await self.nextRegistrationDelay()
                try? await clock.sleep(for: .seconds(delay))
                guard !Task.isCancelled, await self.registration?.state != .registered else { break }
                try? await phone.refreshRegistration()
            }
            await self.registrationRetryEnded()
        }
    }

    static let registrationRetrySlot = "registration retry"

    private func nextRegistrationDelay() -> Int {
        let delay = min(60, 1 << min(registrationRetry.attempt, 6))
        registrationRetry.attempt += 1
        logger.notice("registration failed; retrying in \(delay) s")
        return delay
    }

    private func registrationRetryEnded() { registrationRetry.running = false }
}
