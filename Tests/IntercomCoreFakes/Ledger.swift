import Foundation
import Synchronization

/// What a fake was asked, in order, and a wait that wakes on each new entry (no polling). The
/// wait's deadline is real time and only a guard: a test that waits for something that never
/// comes fails with what the fake did see instead of hanging.
package final class Ledger<Element: Sendable>: Sendable {
    private let entries = Mutex<[Element]>([])
    private let signal = ChangeSignal()

    package init() {}

    package var all: [Element] { entries.withLock { $0 } }
    package var count: Int { entries.withLock { $0.count } }

    package func append(_ entry: Element) {
        entries.withLock { $0.append(entry) }
        signal.changed()
    }

    /// The first value `match` finds in the entries so far, waiting for new ones up to `timeout`.
    @discardableResult
    package func wait<T>(_ what: String, timeout: Duration = .seconds(10),
                         _ match: ([Element]) -> T?) async throws -> T {
        var found: T?
        _ = await signal.wait(timeout: timeout) {
            found = match(all)
            return found != nil
        }
        guard let found else { throw FakeTimeout(what: what, seen: all.map { "\($0)" }) }
        return found
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
