import Foundation
import IntercomBase
import IntercomPhone

/// The phone's word on the registration, applied on the engine (`isolated Intercom`): published,
/// and a failure retried on the engine's clock at `Registration`'s back-off, a task of the engine's.
struct RegistrationFlow {
    let phone: any PhoneService

    static let retrySlot = "registration retry"

    func reported(_ account: String, state: RegistrationState, reason: String?, on engine: isolated Intercom) async {
        engine.registration.note(account: account, state: state, reason: reason)
        switch state {
        case .registered:
            engine.tasks.cancel(Self.retrySlot)
            engine.publish(.registered(account: account, reason: reason))
        case .failed:
            let explained = if let configured = engine.phoneSettings.account {
                await RegistrationDiagnosis.explain(reason, account: configured, tls: engine.phoneSettings.tls)
            } else { reason }
            engine.registration.note(account: account, state: state, reason: explained)
            engine.publish(.registrationFailed(account: account, reason: explained))
            retry(on: engine)
        case .progress, .cleared:
            engine.logger.info("registration of \(account): \(state.rawValue)")
        }
    }

    /// Retries on the engine's clock until a `registered` arrives, at `Registration`'s back-off.
    private func retry(on engine: isolated Intercom) {
        guard engine.registration.startRetrying() else { return }
        let clock = engine.clock
        let phone = phone
        engine.tasks.start(Self.retrySlot) {
            while !Task.isCancelled {
                let delay = await Self.nextDelay(on: engine)
                try? await clock.sleep(for: .seconds(delay))
                guard !Task.isCancelled, await !engine.registration.isRegistered else { break }
                try? await phone.refreshRegistration()
            }
            await Self.retryEnded(on: engine)
        }
    }

    private static func nextDelay(on engine: isolated Intercom) -> Int {
        let delay = engine.registration.nextDelay()
        engine.logger.notice("registration failed; retrying in \(delay) s")
        return delay
    }

    private static func retryEnded(on engine: isolated Intercom) { engine.registration.retryEnded() }
}
