import Foundation
import Synchronization

/// The requests that switch an output back off, owned by the panel rather than by the caller:
/// a caller cancelled mid-pulse must not cancel the `off` with it. Each runs in a task of its own
/// that the caller awaits (uncancelled), and that stays listed here until it ends, so `settle()`
/// (shutdown, tests) can wait for all of them; none is left running unowned.
final class SwitchBacks: Sendable {
    private let running = Mutex<[UUID: Task<PanelError?, Never>]>([:])

    /// Runs `request` to its end whatever happens to the calling task; nil when it succeeded.
    func run(_ request: @escaping @Sendable () async throws(PanelError) -> Void) async -> PanelError? {
        let id = UUID()
        let task = running.withLock { tasks in
            let task = Task.detached { () -> PanelError? in
                do throws(PanelError) {
                    try await request()
                    return nil
                } catch {
                    return error
                }
            }
            tasks[id] = task
            return task
        }
        // Awaiting an unstructured task's value does not pass on the caller's cancellation.
        let result = await task.value
        _ = running.withLock { $0.removeValue(forKey: id) }
        return result
    }

    func settle() async {
        let tasks = running.withLock { Array($0.values) }
        for task in tasks { _ = await task.value }
    }
}
