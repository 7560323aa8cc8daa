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

    /// What woke `take`: the jobs queued, whether anything at all did (a job, or a watched
    /// descriptor readable) rather than the timeout, and the watched descriptors that poll reported
    /// hung up, in error or not open (their owner should stop watching them).
    struct Wake {
        var jobs: [Job]
        var woken: Bool
        var broken: [Int32]
    }

    /// Returns the queued jobs, first sleeping up to `timeout` seconds unless one is queued
    /// already or a descriptor in `watching` has data.
    func take(timeout: TimeInterval, watching descriptors: [Int32] = []) -> Wake {
        lock.lock()
        let pending = !jobs.isEmpty
        lock.unlock()
        var woken = pending
        var broken: [Int32] = []
        if !pending {
            var fds = [pollfd(fd: wakePipe.readFD, events: Int16(POLLIN), revents: 0)]
            fds += descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            woken = poll(&fds, nfds_t(fds.count), Int32(max(0, timeout * 1000))) > 0
            let failed = Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)
            broken = fds.dropFirst().filter { $0.revents & failed != 0 }.map(\.fd)
        }
        wakePipe.drain()
        lock.lock()
        defer { lock.unlock() }
        let taken = jobs
        jobs.removeAll(keepingCapacity: true)
        return Wake(jobs: taken, woken: woken, broken: broken)
    }
}
