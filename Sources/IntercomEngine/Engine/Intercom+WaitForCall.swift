import Foundation
import IntercomBase

extension Intercom {
    /// How a wait for a call's state ended.
    enum CallWait { case reached, ended, timedOut }

    /// Waits until the call satisfies `condition`, the call ends, or `seconds` of the engine's
    /// clock pass. Woken by every change of `calls` (calls change state in this actor, between its
    /// awaits) and by the timer; throws `CancellationError` when the waiting task is cancelled.
    func wait(for id: CallID, upTo seconds: TimeInterval, until condition: (CallSession) -> Bool) async throws -> CallWait {
        let token = UUID()
        callWaitsTimedOut[token] = false
        let clock = clock
        let timer = Task { [weak self] in
            do { try await clock.sleep(seconds: seconds) } catch { return }
            await self?.expireWait(token)
        }
        defer {
            timer.cancel()
            callWaitsTimedOut[token] = nil
        }
        while true {
            guard let session = calls[id] else { return .ended }
            if condition(session) { return .reached }
            guard callWaitsTimedOut[token] != true else { return .timedOut }
            try Task.checkCancellation()
            await nextCallChange()
        }
    }

    /// Returns at the next change of `calls`, an expired wait, or the task's cancellation.
    private func nextCallChange() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
                if Task.isCancelled { return resume.resume() }
                callWaiters[id] = resume
            }
        } onCancel: {
            Task { await self.wakeCallWaiters() }
        }
    }

    /// A wait's time ran out (a wait that has already returned is left alone).
    private func expireWait(_ token: UUID) {
        guard callWaitsTimedOut[token] != nil else { return }
        callWaitsTimedOut[token] = true
        wakeCallWaiters()
    }

    func wakeCallWaiters() {
        guard !callWaiters.isEmpty else { return }
        let waiting = callWaiters.values
        callWaiters = [:]
        for resume in waiting { resume.resume() }
    }
}
