import Foundation
import IntercomBase
import IntercomPhone

/// The SIP account's registration as the phone last reported it, and the retry after a failure.
/// liblinphone gives up after a failed REGISTER until its next refresh; we retry sooner,
/// 1 s doubling to 60 s, and keep retrying until a `registered` arrives (a retry that fails
/// without a new `failed` event must not end the retries). The engine runs the retry loop on its
/// clock (`RegistrationFlow`); this says when, and whether one runs.
struct Registration: Sendable {
    /// The last report: the account, its state, and why (a failure's reason, explained).
    private(set) var current: (account: String, state: RegistrationState, reason: String?)?
    /// Retries since the last success.
    private(set) var attempt = 0
    /// A retry loop runs (one at a time).
    private(set) var retrying = false

    static let longestDelay = 60

    var isRegistered: Bool { current?.state == .registered }

    /// The phone's report. A success resets the back-off and ends the retrying.
    mutating func note(account: String, state: RegistrationState, reason: String?) {
        current = (account, state, reason)
        if state == .registered {
            attempt = 0
            retrying = false
        }
    }

    /// A failure asks for a retry loop: true when none runs yet (the caller starts it).
    mutating func startRetrying() -> Bool {
        guard !retrying else { return false }
        retrying = true
        return true
    }

    /// Seconds before the next retry: 1, 2, 4 … up to 60, then 60 until a success.
    mutating func nextDelay() -> Int {
        defer { attempt += 1 }
        return min(Self.longestDelay, 1 << min(attempt, 6))
    }

    /// The retry loop returned (registered, or the engine stopped).
    mutating func retryEnded() { retrying = false }

    /// The `registration` of the control socket's state.
    var status: IntercomStatus.Registration? {
        current.map { .init(account: $0.account, state: $0.state.rawValue, reason: $0.reason) }
    }
}
