import Foundation
import IntercomBase

/// How a wait for a call's state ended.
enum CallWait {
    case reached, ended, timedOut

    /// Waits until the call satisfies `condition`, the call ends, or `seconds` of the engine's
    /// clock pass. Woken by every change of the engine's calls (they change state in the actor,
    /// between its awaits: the registry is read again after each) and by the timer, a task of the
    /// call's own; throws `CancellationError` when the waiting task is cancelled.
    static func wait(for id: CallID, upTo seconds: TimeInterval, until condition: (CallSession) -> Bool,
                     on engine: isolated Intercom) async throws -> CallWait {
        guard let session = engine.calls[id] else { return .ended }
        if condition(session) { return .reached }
        let token = engine.calls.waitStarted()
        let clock = engine.clock
        // The call's: it ends with the call (which ends the wait too), or with the wait.
        let timer = session.start { [weak engine] in
            do { try await clock.sleep(seconds: seconds) } catch { return }
            guard let engine else { return }
            await expire(token, on: engine)
        }
        defer {
            timer?.cancel()
            engine.calls.waitEnded(token)
        }
        while true {
            let seen = engine.calls.changes.version
            guard let session = engine.calls[id], session.endReason == nil else { return .ended }
            if condition(session) { return .reached }
            guard !engine.calls.hasTimedOut(token) else { return .timedOut }
            try Task.checkCancellation()
            await engine.calls.changes.next(after: seen)
        }
    }

    private static func expire(_ token: UUID, on engine: isolated Intercom) { engine.calls.expire(token) }
}
