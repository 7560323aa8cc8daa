import Foundation
import IntercomBase

extension Intercom {
    /// How a wait for a call's state ended.
    enum CallWait { case reached, ended, timedOut }

    /// Waits until the call satisfies `condition`, the call ends, or `seconds` of the engine's
    /// clock pass. Woken by every change of `calls` (calls change state in this actor, between its
    /// awaits) and by the timer, a task of the call's own; throws `CancellationError` when the
    /// waiting task is cancelled.
    func wait(for id: CallID, upTo seconds: TimeInterval, until condition: (CallSession) -> Bool) async throws -> CallWait {
        guard let session = calls[id] else { return .ended }
        if condition(session) { return .reached }
        let token = calls.waitStarted()
        let clock = clock
        // The call's: it ends with the call (which ends the wait too), or with the wait.
        let timer = session.start { [weak self] in
            do { try await clock.sleep(seconds: seconds) } catch { return }
            await self?.expireWait(token)
        }
        defer {
            timer?.cancel()
            calls.waitEnded(token)
        }
        while true {
            let seen = calls.changes.version
            guard let session = calls[id], session.endReason == nil else { return .ended }
            if condition(session) { return .reached }
            guard !calls.hasTimedOut(token) else { return .timedOut }
            try Task.checkCancellation()
            await calls.changes.next(after: seen)
        }
    }

    private func expireWait(_ token: UUID) { calls.expire(token) }
}
