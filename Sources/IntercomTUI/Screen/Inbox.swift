import Foundation
import Synchronization
import IntercomBase

/// What reaches the TUI thread from elsewhere: the intercom's events and the outcome of
/// commands it started. The TUI thread drains it between key presses; a post wakes it at once
/// (a self-pipe it polls beside the keyboard), so a ring is on screen without waiting for a tick.
final class Inbox: Sendable {
    enum Item: Sendable {
        case event(IntercomEvent)
        case message(String, warn: Bool)
        /// The intercom took a transfer request: its outcome (`call_transferred`) is awaited.
        case transferAsked(CallID, target: String)
        /// The intercom's door list (the `doors` command's reply).
        case doors([DoorListing])
        /// Close the screen (`TUIApp.stop()`: a signal), as q does.
        case quit
        /// Ctrl-Z (`SuspendSignal`): stop until continued, the terminal put back meanwhile.
        case suspend
    }

    private let items = Mutex<[Item]>([])
    /// The calls this screen asked to answer: another screen's answer is shown as such.
    private let answering = Mutex<Set<CallID>>([])

    func answeringHere(_ call: CallID) { answering.withLock { _ = $0.insert(call) } }
    func answeredHere(_ call: CallID) -> Bool { answering.withLock { $0.contains(call) } }
    /// Polled by the TUI thread beside the keyboard.
    let wake = WakePipe()

    func post(_ item: Item) {
        items.withLock { $0.append(item) }
        wake.wake()
    }

    func drain() -> [Item] {
        items.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
