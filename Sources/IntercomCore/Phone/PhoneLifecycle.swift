import Synchronization

/// Shared between the phone thread and callers of `Phone.stop()`: the stop request, and who waits for the end.
final class PhoneLifecycle: Sendable {
    private struct State {
        var stopRequested = false
        var finished = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    var stopRequested: Bool { state.withLock { $0.stopRequested } }

    func requestStop() { state.withLock { $0.stopRequested = true } }

    func didFinish() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.finished = true
            defer { s.waiters = [] }
            return s.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func waitUntilFinished() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { s -> Bool in
                if !s.finished { s.waiters.append(done) }
                return s.finished
            }
            if finished { done.resume() }
        }
    }
}
