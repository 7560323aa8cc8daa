import Synchronization

/// Where peephole frames meet their viewers: the newest frame per panel, and streams for
/// those who draw every frame. The newest frame wins; nothing queues behind a slow viewer.
public final class PeepholeHub: Sendable {
    private let latestByPanel = Mutex<[String: PeepholeFrame]>([:])
    private let broadcaster = Broadcaster<PeepholeFrame>()

    public init() {}

    public func latest(panel: String) -> PeepholeFrame? { latestByPanel.withLock { $0[panel] } }

    /// Every frame from now on; a slow consumer sees only the newest one.
    public func frames() -> AsyncStream<PeepholeFrame> { broadcaster.subscribe(.bufferingNewest(1)) }

    func publish(_ frame: PeepholeFrame) {
        latestByPanel.withLock { $0[frame.panel] = frame }
        broadcaster.yield(frame)
    }
}
