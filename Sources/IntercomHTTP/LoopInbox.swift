import CCurl
import CCurlShim
import Dispatch
import Synchronization

/// What the event loop's facade and its thread share: the commands waiting for the thread, the
/// multi handle (only to wake the thread: `curl_multi_wakeup` is the one multi call documented as
/// safe from any thread) and a count of the transfers inside curl.
final class LoopInbox: Sendable {
    /// The multi handle's address. Unchecked: apart from `post`'s wake-up, only the loop thread uses it.
    struct MultiHandle: @unchecked Sendable {
        let raw: UnsafeMutableRawPointer
    }

    private struct State {
        var commands: [LoopCommand] = []
        var closed = false
    }

    let multi: MultiHandle
    /// The loaded library, for the loop thread and the wake-up.
    let curl: CurlLibrary.Functions
    private let state = Mutex(State())
    /// Easy handles added to the multi handle and not yet removed; written on the loop thread.
    let running = Atomic<Int>(0)
    /// Signalled once by the loop thread as it ends.
    private let ended = DispatchSemaphore(value: 0)

    init(multi: UnsafeMutableRawPointer, curl: CurlLibrary.Functions) {
        self.multi = MultiHandle(raw: multi)
        self.curl = curl
    }

    func post(_ command: LoopCommand) {
        // Woken under the lock, so `closeMulti` cannot free the handle in between.
        state.withLock { state in
            state.commands.append(command)
            if !state.closed { _ = curl.c.multi_wakeup(multi.raw) }
        }
    }

    /// Everything posted since the last call, oldest first.
    func take() -> [LoopCommand] {
        state.withLock { state in
            defer { state.commands.removeAll(keepingCapacity: true) }
            return state.commands
        }
    }

    /// The loop thread has ended: `waitForEnd` returns.
    func threadEnded() { ended.signal() }

    /// Whether the loop thread ended within `limit`.
    func waitForEnd(_ limit: Duration) -> Bool {
        let nanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
        return ended.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success
    }

    /// On the loop thread, as it returns: the multi handle goes, and no wake-up reaches it after.
    func closeMulti() {
        state.withLock { state in
            state.closed = true
            _ = curl.c.multi_cleanup(multi.raw)
        }
    }
}
