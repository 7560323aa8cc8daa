import Foundation
import Synchronization

/// What a fake was asked, in order, and a wait that wakes on each new entry (no polling). The
/// wait's deadline is real time and only a guard: a test that waits for something that never
/// comes fails with what the fake did see instead of hanging.
package final class Ledger<Element: Sendable>: Sendable {
    private struct State {
        var entries: [Element] = []
        var wakers: [UUID: AsyncStream<Void>.Continuation] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    package var all: [Element] { state.withLock { $0.entries } }
    package var count: Int { state.withLock { $0.entries.count } }

    package func append(_ entry: Element) {
        let wakers = state.withLock { s in
            s.entries.append(entry)
            return Array(s.wakers.values)
        }
        for waker in wakers { waker.yield() }
    }

    /// The first value `match` finds in the entries so far, waiting for new ones up to `timeout`.
    @discardableResult
    package func wait<T>(_ what: String, timeout: Duration = .seconds(10),
                         _ match: ([Element]) -> T?) async throws -> T {
        let id = UUID()
        let (changes, waker) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.wakers[id] = waker }
        let guardTimer = Task {
            try? await Task.sleep(for: timeout)
            waker.finish()
        }
        defer {
            guardTimer.cancel()
            _ = state.withLock { $0.wakers.removeValue(forKey: id) }
        }
        if let found = match(all) { return found }
        for await _ in changes {
            if let found = match(all) { return found }
        }
        if let found = match(all) { return found }
        throw FakeTimeout(what: what, seen: all.map { "\($0)" })
    }

    /// Waits until an entry satisfies `condition`; returns it.
    @discardableResult
    package func wait(for what: String, timeout: Duration = .seconds(10),
                      where condition: (Element) -> Bool) async throws -> Element {
        try await wait(what, timeout: timeout) { $0.first(where: condition) }
    }
}

/// A fake did not see what the test waited for.
package struct FakeTimeout: Error, CustomStringConvertible {
    package var what: String
    package var seen: [String]
    package var description: String { "timed out waiting for \(what); the fake saw:\n  " + seen.joined(separator: "\n  ") }
}
