import Foundation
import IntercomCore
import Synchronization

/// What reaches the TUI thread from elsewhere: the intercom's events and the outcome of
/// commands it started. The TUI thread drains it between key presses; a post wakes it at once
/// (a self-pipe it polls beside the keyboard), so a ring is on screen without waiting for a tick.
final class Inbox: Sendable {
    enum Item: Sendable {
        case event(IntercomEvent)
        case message(String, warn: Bool)
    }

    private let items = Mutex<[Item]>([])
    /// Read end, polled by the TUI thread; the write end takes a byte per post.
    let wakeFD: Int32
    private let wakeWriteFD: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for fd in ends {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        wakeFD = ends[0]
        wakeWriteFD = ends[1]
    }

    deinit {
        close(wakeFD)
        close(wakeWriteFD)
    }

    func post(_ item: Item) {
        items.withLock { $0.append(item) }
        // A full pipe already holds a wake-up; losing this byte loses nothing.
        var byte: UInt8 = 1
        _ = write(wakeWriteFD, &byte, 1)
    }

    func drain() -> [Item] {
        items.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
