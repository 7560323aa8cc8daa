import Synchronization

/// Where peephole frames meet their viewers: the newest frame per panel, which viewers read at
/// their own pace. The newest frame wins; nothing queues behind a slow viewer.
public final class PeepholeHub: Sendable {
    private let latestByPanel = Mutex<[String: PeepholeFrame]>([:])
    private let problemByPanel = Mutex<[String: String]>([:])

    public init() {}

    public func latest(panel: String) -> PeepholeFrame? { latestByPanel.withLock { $0[panel] } }

    /// Why the panel's last snapshot failed; nil once one arrives again (`intercom watch` shows it).
    public func problem(panel: String) -> String? { problemByPanel.withLock { $0[panel] } }

    func publish(_ frame: PeepholeFrame) {
        latestByPanel.withLock { $0[frame.panel] = frame }
        problemByPanel.withLock { $0[frame.panel] = nil }
    }

    func report(panel: String, problem: String) {
        problemByPanel.withLock { $0[panel] = problem }
    }
}
