import Synchronization

/// Where peephole frames meet their viewers: the newest frame per panel, and streams for
/// those who draw every frame. The newest frame wins; nothing queues behind a slow viewer.
public final class PeepholeHub: Sendable {
    private struct State {
        var latest: [String: PeepholeFrame] = [:]
        var subscribers: [UInt64: AsyncStream<PeepholeFrame>.Continuation] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    public func latest(panel: String) -> PeepholeFrame? { state.withLock { $0.latest[panel] } }

    /// Every frame from now on; a slow consumer sees only the newest one.
    public func frames() -> AsyncStream<PeepholeFrame> {
        let (stream, continuation) = AsyncStream<PeepholeFrame>.makeStream(bufferingPolicy: .bufferingNewest(1))
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

    func publish(_ frame: PeepholeFrame) {
        let subscribers = state.withLock { s -> [AsyncStream<PeepholeFrame>.Continuation] in
            s.latest[frame.panel] = frame
            return Array(s.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(frame) }
    }
}
