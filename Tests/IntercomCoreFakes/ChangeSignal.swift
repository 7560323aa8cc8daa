import Foundation
import Synchronization

/// Wakes the tests waiting on a fake each time what it holds changes; each waiter looks at its
/// condition again then (no polling). The timeout is real time and only a guard: a test whose
/// condition never comes fails instead of hanging.
final class ChangeSignal: Sendable {
    private let wakers = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])

    func changed() {
        for waker in wakers.withLock({ Array($0.values) }) { waker.yield() }
    }

    /// True once `condition` holds (looked at now and after each change), false after `timeout`.
    func wait(timeout: Duration, until condition: () -> Bool) async -> Bool {
        let id = UUID()
        let (changes, waker) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wakers.withLock { $0[id] = waker }
        let guardTimer = Task {
            try? await Task.sleep(for: timeout)
            waker.finish()
        }
        defer {
            guardTimer.cancel()
            _ = wakers.withLock { $0.removeValue(forKey: id) }
        }
        if condition() { return true }
        for await _ in changes where condition() { return true }
        return condition()
    }
}
