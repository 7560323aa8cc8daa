import Foundation
import Synchronization

/// Collects values from an async sequence in the background so tests can wait with a deadline.
package final class PanelEventRecorder<Element: Sendable>: Sendable {
    private final class Storage: Sendable {
        package let items = Mutex<[Element]>([])
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    package init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        task = Task { [storage] in
            do {
                for try await item in sequence { storage.items.withLock { $0.append(item) } }
            } catch {}
        }
    }

    package var all: [Element] { storage.items.withLock { $0 } }

    /// Waits until `predicate` holds for the recorded values, or the timeout passes.
    // A deadline, not a pause: generous so a loaded 2-core machine (CPU-heavy suites run in parallel) does not fail it.
    package func wait(timeout: Duration = TestPatience.condition, until predicate: ([Element]) -> Bool) async -> Bool {
        await TestPatience.eventually(within: timeout) { predicate(all) }
    }

    package func cancel() { task.cancel() }
}
