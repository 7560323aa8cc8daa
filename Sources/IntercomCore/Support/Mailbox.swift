import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A queue of jobs for one thread, which sleeps in poll(2) until a job arrives, one of the
/// extra descriptors it watches becomes readable, or the timeout passes. Any thread may `post`.
final class Mailbox<Job: Sendable>: @unchecked Sendable {
    // `jobs` and `closed` are guarded by `lock`; the eventfd is written by posters and read by the owner.
    private let lock = NSLock()
    private var jobs: [Job] = []
    private var closed = false
    /// A self-pipe: posters write a byte, the owner polls the read end.
    private let wakeFD: Int32
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

    /// False once the mailbox is closed: the job was not queued.
    @discardableResult
    func post(_ job: Job) -> Bool {
        lock.lock()
        guard !closed else {
            lock.unlock()
            return false
        }
        jobs.append(job)
        lock.unlock()
        var one: UInt8 = 1
        _ = write(wakeWriteFD, &one, 1)
        return true
    }

    /// Returns the queued jobs, first sleeping up to `timeout` seconds unless one is queued
    /// already or a descriptor in `watching` has data.
    func take(timeout: TimeInterval, watching descriptors: [Int32] = []) -> [Job] {
        lock.lock()
        let pending = !jobs.isEmpty || closed
        lock.unlock()
        if !pending {
            var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            fds += descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), Int32(max(0, timeout * 1000)))
        }
        var drained = [UInt8](repeating: 0, count: 256)
        while read(wakeFD, &drained, drained.count) > 0 {}
        lock.lock()
        defer { lock.unlock() }
        let taken = jobs
        jobs.removeAll(keepingCapacity: true)
        return taken
    }
}
