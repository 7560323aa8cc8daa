import Foundation
import IntercomCore
import Synchronization

/// What reaches the TUI thread from elsewhere: the intercom's events and the outcome of
/// commands it started. The TUI thread drains it between key presses.
final class Inbox: Sendable {
    enum Item: Sendable {
        case event(IntercomEvent)
        case message(String, warn: Bool)
    }

    private let items = Mutex<[Item]>([])

    func post(_ item: Item) { items.withLock { $0.append(item) } }

    func drain() -> [Item] {
        items.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
