import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One socket descriptor with one owner. The number is closed exactly once, and after that
/// `shutdown` and `close` do nothing: a late reply or event for a client that already left must
/// never shut down whatever the kernel has since given the same number to (a SIP socket, a
/// journal file, another client).
///
/// Blocking reads and writes use `fd` directly, without the lock (they may block for long); the
/// owner guarantees they are over before it calls `close`. Everything else goes through here.
package final class OwnedDescriptor: @unchecked Sendable {
    /// Valid until `close`; only for the blocking reads and writes of the owner's own threads.
    package let fd: Int32
    // Under `lock`.
    private let lock = NSLock()
    private var closed = false

    package init(_ fd: Int32) { self.fd = fd }

    /// Wakes anything blocked on the socket (both directions); nothing once closed.
    package func shutdown() {
        lock.withLock {
            guard !closed else { return }
            _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    /// Ends our sending side only (the peer sees end of file); nothing once closed.
    package func shutdownWrite() {
        lock.withLock {
            guard !closed else { return }
            _ = Glibc.shutdown(fd, Int32(SHUT_WR))
        }
    }

    /// Closes the descriptor the first time; later calls do nothing.
    package func close() {
        lock.withLock {
            guard !closed else { return }
            closed = true
            _ = Glibc.close(fd)
        }
    }

    package var isClosed: Bool { lock.withLock { closed } }

    deinit { close() }
}
