import Synchronization

/// Where peephole frames meet their viewers: the newest frame per panel, which viewers read at
/// their own pace. The newest frame wins; nothing queues behind a slow viewer.
public final class PeepholeHub: Sendable {
    private let latestByPanel = Mutex<[String: PeepholeFrame]>([:])

    public init() {}

    public func latest(panel: String) -> PeepholeFrame? { latestByPanel.withLock { $0[panel] } }

    func publish(_ frame: PeepholeFrame) {
        latestByPanel.withLock { $0[frame.panel] = frame }
    }
}
