import Foundation
import IntercomBase
import IntercomPhone

extension Intercom {
    /// The phone's word on the registration: published, and a failure retried (`Registration`).
    func registrationReported(_ account: String, state: RegistrationState, reason: String?, phone: any PhoneService) async {
        registration.note(account: account, state: state, reason: reason)
        switch state {
        case .registered:
            tasks.cancel(Self.registrationRetrySlot)
            publish(.registered(account: account, reason: reason))
        case .failed:
            let explained = if let configured = phoneSettings.account {
                await RegistrationDiagnosis.explain(reason, account: configured, tls: phoneSettings.tls)
            } else { reason }
            registration.note(account: account, state: state, reason: explained)
            publish(.registrationFailed(account: account, reason: explained))
            scheduleRegistrationRetry(phone)
        case .progress, .cleared:
            logger.info("registration of \(account): \(state.rawValue)")
        }
    }

    /// Retries on the engine's clock until a `registered` arrives, at `Registration`'s back-off.
    private func scheduleRegistrationRetry(_ phone: any PhoneService) {
        guard registration.startRetrying() else { return }
        let clock = clock
        tasks.start(Self.registrationRetrySlot) {
            while !Task.isCancelled {
                let delay = await self.nextRegistrationDelay()
                try? await clock.sleep(for: .seconds(delay))
                guard !Task.isCancelled, await !self.registration.isRegistered else { break }
                try? await phone.refreshRegistration()
            }
            await self.registrationRetryEnded()
        }
    }

    static let registrationRetrySlot = "registration retry"

    private func nextRegistrationDelay() -> Int {
        let delay = registration.nextDelay()
        logger.notice("registration failed; retrying in \(delay) s")
        return delay
    }

    private func registrationRetryEnded() { registration.retryEnded() }
}
