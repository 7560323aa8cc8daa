import Synchronization

/// Hands every event to every subscriber, each through its own unbounded stream, so a slow
/// reader (a stuck control-socket client) never holds up the others or the phone.
public final class EventBus: Sendable {
    private struct State {
        var subscribers: [UInt64: AsyncStream<IntercomEvent>.Continuation] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    public func publish(_ event: IntercomEvent) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.yield(event) }
    }

    /// A stream of every event published from now on; it ends when the consumer stops iterating.
    public func subscribe(bufferingNewest limit: Int? = nil) -> AsyncStream<IntercomEvent> {
        let policy: AsyncStream<IntercomEvent>.Continuation.BufferingPolicy = limit.map { .bufferingNewest($0) } ?? .unbounded
        let (stream, continuation) = AsyncStream<IntercomEvent>.makeStream(bufferingPolicy: policy)
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

    /// Ends every subscriber's stream.
    public func finish() {
        let subscribers = state.withLock { s -> [AsyncStream<IntercomEvent>.Continuation] in
            defer { s.subscribers = [:] }
            return Array(s.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
