import Foundation


/// Collects a stream's elements so a test can wait for the one it expects, with a deadline.
package final class EventRecorder<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [Element] = []
    private var task: Task<Void, Never>?

    package init(_ stream: AsyncStream<Element>) {
        task = Task { [weak self] in
            for await element in stream {
                guard let self else { return }
                self.lock.withLock { self.seen.append(element) }
            }
        }
    }

    deinit { task?.cancel() }

    package var all: [Element] { lock.withLock { seen } }

    /// The first element (from the start) that `match` maps to a value, waiting up to `timeout` seconds.
    package func wait<T>(_ what: String, timeout: Double = TestPatience.seconds, _ match: (Element) -> T?) async throws -> T {
        var found: T?
        // Match outside the lock: a matcher may read the recorder itself.
        await TestPatience.eventually(within: .seconds(timeout), every: .milliseconds(5)) {
            found = lock.withLock({ seen }).lazy.compactMap(match).first
            return found != nil
        }
        guard let found else { throw TimeoutError(what: what, seen: lock.withLock { seen.map { "\($0)" } }) }
        return found
    }
}

package struct TimeoutError: Error, CustomStringConvertible {
    package var what: String
    package var seen: [String]
    package var description: String { "timed out waiting for \(what); saw:\n  " + seen.joined(separator: "\n  ") }
}
