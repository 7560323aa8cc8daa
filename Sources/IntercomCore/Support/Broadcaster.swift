import Synchronization

/// Hands each value to every current subscriber, each through its own stream, so one slow
/// reader never holds up another or the producer. A subscription ends when its reader stops.
final class Broadcaster<Value: Sendable>: Sendable {
    private struct State {
        var subscribers: [UInt64: AsyncStream<Value>.Continuation] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())

    func subscribe(_ policy: AsyncStream<Value>.Continuation.BufferingPolicy) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: policy)
        let token = state.withLock { s -> UInt64 in
            s.next += 1
            s.subscribers[s.next] = continuation
            return s.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: token) }
        }
        return stream
    }

    func yield(_ value: Value) {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.yield(value) }
    }

    func finish() {
        let subscribers = state.withLock { s -> [AsyncStream<Value>.Continuation] in
            defer { s.subscribers = [:] }
            return Array(s.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
