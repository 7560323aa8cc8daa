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
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            // Match outside the lock: a matcher may read the recorder itself.
            if let found = lock.withLock({ seen }).lazy.compactMap(match).first { return found }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        throw TimeoutError(what: what, seen: lock.withLock { seen.map { "\($0)" } })
    }
}

package struct TimeoutError: Error, CustomStringConvertible {
    package var what: String
    package var seen: [String]
    package var description: String { "timed out waiting for \(what); saw:\n  " + seen.joined(separator: "\n  ") }
}
