import Foundation
import IntercomBase
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A connection to the site's PostgreSQL as the rest of the program sees it: Sendable, async, no C
/// types. libpq runs on one thread of ours (`PostgresSession`), which sleeps in poll() on the
/// server's socket and a wake pipe: a request posts a job and wakes it; a NOTIFY wakes it too and
/// goes out on `notices` at once. A connection that breaks, or a request not done within the
/// target's `timeout` (counted from when it was asked, so those queued behind a frozen one expire
/// with it), fails the request in flight (`lost`); the next request connects afresh, and a
/// listening connection tries again every second until it is back (`resumed`). `close()` ends the
/// thread; its owner awaits it.
public final class PostgresConnection: Sendable {
    struct Job: Sendable {
        /// When it must be done by: asked + the target's timeout.
        let deadline: ContinuousClock.Instant
        let work: @Sendable (PostgresSession) -> Void
    }

    /// NOTIFYs on the channels `listen` named, and the connection's losses and returns.
    public let notices: AsyncStream<PostgresNotice>
    private let mailbox = Mailbox()
    private let timeout: Duration

    /// Starts the connection's thread; the first request connects.
    public init(target: PostgresTarget) {
        let (notices, continuation) = AsyncStream.makeStream(of: PostgresNotice.self, bufferingPolicy: .unbounded)
        self.notices = notices
        timeout = target.timeout
        let thread = Thread { [mailbox] in
            let session = PostgresSession(target: target, deliver: { continuation.yield($0) })
            mailbox.run(session)
            session.drop()
            continuation.finish()
            mailbox.finish()
        }
        thread.name = "intercom.postgres"
        thread.start()
    }

    deinit {
        // The owner should have awaited `close()`; the thread must not outlive us either way.
        mailbox.close()
    }

    /// Runs one statement; `parameters` are bound ($1, $2, …), never spliced into `sql`.
    @discardableResult
    public func query(_ sql: String, _ parameters: [String?] = []) async throws(PostgresError) -> PostgresRows {
        try await perform { session throws(PostgresError) in try session.execute(sql, parameters) }
    }

    /// Runs `body` in one transaction (BEGIN … COMMIT), rolled back when it throws.
    public func transaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresTransaction) throws(PostgresError) -> T
    ) async throws(PostgresError) -> T {
        try await perform { session throws(PostgresError) in
            _ = try session.execute("BEGIN", [])
            do throws(PostgresError) {
                let value = try body(PostgresTransaction(session: session))
                _ = try session.execute("COMMIT", [])
                return value
            } catch {
                _ = try? session.execute("ROLLBACK", [])
                throw error
            }
        }
    }

    /// LISTENs on `channel` from now on (again after every reconnect); NOTIFYs arrive on `notices`.
    public func listen(_ channel: String) async throws(PostgresError) {
        try await perform { session throws(PostgresError) in try session.listen(channel) }
    }

    /// Ends the thread and the connection; returns when both are gone. Requests after it fail.
    public func close() async {
        mailbox.close()
        await mailbox.ended()
    }

    private func perform<T: Sendable>(
        _ work: @escaping @Sendable (PostgresSession) throws(PostgresError) -> T
    ) async throws(PostgresError) -> T {
        let result = await withCheckedContinuation { (answer: CheckedContinuation<Result<T, PostgresError>, Never>) in
            let job = Job(deadline: .now + timeout) { session in
                do throws(PostgresError) { answer.resume(returning: .success(try work(session))) } catch {
                    answer.resume(returning: .failure(error))
                }
            }
            if !mailbox.post(job) {
                answer.resume(returning: .failure(PostgresError(.lost, "the site's database connection is closed")))
            }
        }
        return try result.get()
    }

}

/// What the callers and the connection's thread share: the posted jobs, the wake pipe the thread
/// polls beside the server's socket, and who waits for the thread's end.
private final class Mailbox: Sendable {
    private let jobs = Mutex<(pending: [PostgresConnection.Job], closing: Bool)>(([], false))
    private let wake = WakePipe()
    private let end = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// False once closing: the job was not taken.
    func post(_ job: PostgresConnection.Job) -> Bool {
        let accepted = jobs.withLock { state -> Bool in
            guard !state.closing else { return false }
            state.pending.append(job)
            return true
        }
        if accepted { wake.wake() }
        return accepted
    }

    func close() {
        jobs.withLock { $0.closing = true }
        wake.wake()
    }

    /// The thread: run what was posted, then sleep until the socket or the wake pipe has something
    /// (a second at most while a listener waits to reconnect).
    func run(_ session: PostgresSession) {
        while true {
            let (pending, closing) = jobs.withLock { state in
                defer { state.pending = [] }
                return (state.pending, state.closing)
            }
            for job in pending {
                session.deadline = job.deadline
                job.work(session)
            }
            if closing { return }
            session.resume()
            var fds = [pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)]
            if let socket = session.socket { fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
            _ = poll(&fds, nfds_t(fds.count), session.wantsResume ? 1000 : -1)
            wake.drain()
            if fds.count > 1, fds[1].revents != 0 { session.consumeInput() }
        }
    }

    /// Called by the thread as it ends: every `ended()` returns.
    func finish() {
        let waiters = end.withLock { state in
            state.done = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    func ended() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done = end.withLock { state in
                if !state.done { state.waiters.append(waiter) }
                return state.done
            }
            if done { waiter.resume() }
        }
    }
}

/// Statements inside `PostgresConnection.transaction`, run on the connection's thread.
public struct PostgresTransaction {
    let session: PostgresSession

    @discardableResult
    public func query(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRows {
        try session.execute(sql, parameters)
    }
}
