import Foundation
import IntercomPhone
import Synchronization

/// The fake phone's events as the engine reads them, one at a time. The engine handles an event
/// to its end before it asks for the next, so when it waits on an empty queue, everything the
/// fake reported has been handled: `handled()` returns then (woken, not polled).
final class PhoneEventQueue: Sendable {
    private struct State {
        var buffer: [PhoneEvent] = []
        var reader: CheckedContinuation<PhoneEvent?, Never>?
        var finished = false
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func yield(_ event: PhoneEvent) {
        let reader = state.withLock { s -> CheckedContinuation<PhoneEvent?, Never>? in
            guard !s.finished else { return nil }
            if let reader = s.reader {
                s.reader = nil
                return reader
            }
            s.buffer.append(event)
            return nil
        }
        reader?.resume(returning: event)
    }

    func finish() {
        let (reader, idle) = state.withLock { s in
            s.finished = true
            defer {
                s.reader = nil
                s.idleWaiters = []
            }
            return (s.reader, s.idleWaiters)
        }
        reader?.resume(returning: nil)
        for waiter in idle { waiter.resume() }
    }

    /// The reader's next event; waits while there is none.
    func next() async -> PhoneEvent? {
        await withCheckedContinuation { (reader: CheckedContinuation<PhoneEvent?, Never>) in
            enum Next { case event(PhoneEvent), end, wait([CheckedContinuation<Void, Never>]) }
            let next = state.withLock { s -> Next in
                if !s.buffer.isEmpty { return .event(s.buffer.removeFirst()) }
                if s.finished { return .end }
                s.reader = reader
                defer { s.idleWaiters = [] }
                return .wait(s.idleWaiters)
            }
            switch next {
            case .event(let event): reader.resume(returning: event)
            case .end: reader.resume(returning: nil)
            case .wait(let idle): for waiter in idle { waiter.resume() }
            }
        }
    }

    /// Returns once the reader waits on an empty queue (or the queue is finished).
    func handled() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.finished || (s.reader != nil && s.buffer.isEmpty) { return true }
                s.idleWaiters.append(waiter)
                return false
            }
            if now { waiter.resume() }
        }
    }

    /// The events as an `AsyncStream`, read through `next()`.
    var stream: AsyncStream<PhoneEvent> {
        AsyncStream(unfolding: { await self.next() })
    }
}
