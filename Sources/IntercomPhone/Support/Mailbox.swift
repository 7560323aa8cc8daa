import Foundation
#if canImport(Glibc)
import Glibc
#endif
import IntercomBase

/// A queue of jobs for one thread, which sleeps in poll(2) until a job arrives, one of the
/// extra descriptors it watches becomes readable, or the timeout passes. Any thread may `post`.
final class Mailbox<Job: Sendable>: @unchecked Sendable {
    // `jobs` is guarded by `lock`.
    private let lock = NSLock()
    private var jobs: [Job] = []
    /// Posters wake the owner, which polls its read end.
    private let wakePipe = WakePipe()

    func post(_ job: Job) {
        lock.lock()
        jobs.append(job)
        lock.unlock()
        wakePipe.wake()
    }

    /// Returns the queued jobs, first sleeping up to `timeout` seconds unless one is queued
    /// already or a descriptor in `watching` has data.
    func take(timeout: TimeInterval, watching descriptors: [Int32] = []) -> [Job] {
        lock.lock()
        let pending = !jobs.isEmpty
        lock.unlock()
        if !pending {
            var fds = [pollfd(fd: wakePipe.readFD, events: Int16(POLLIN), revents: 0)]
            fds += descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), Int32(max(0, timeout * 1000)))
        }
        wakePipe.drain()
        lock.lock()
        defer { lock.unlock() }
        let taken = jobs
        jobs.removeAll(keepingCapacity: true)
        return taken
    }
}
