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

    /// Runs `sql` every `period` on the connection's own thread, until a run fails (thrown) or the
    /// calling task is cancelled (returns). A beat that only says "still here" then costs the
    /// process two wake-ups of this thread (the period's end, the server's answer) and nothing
    /// else: no hop to the caller's executor while the server answers (a beat sent as a request
    /// woke five threads). `parameters` is asked at each run, on the connection's thread. One at a
    /// time: a second one replaces the first, which returns.
    public func repeating(every period: Duration, _ sql: String,
                          _ parameters: @escaping @Sendable () -> [String?]) async throws(PostgresError) {
        let id = UUID()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (answer: CheckedContinuation<PostgresError?, Never>) in
                let beacon = Beacon(id: id, period: period, next: .now + period, answer: answer) { session in
                    do throws(PostgresError) {
                        _ = try session.execute(sql, parameters())
                        return nil
                    } catch { return error }
                }
                if !mailbox.arm(beacon) {
                    answer.resume(returning: PostgresError(.lost, "the site's database connection is closed"))
                }
            }
        } onCancel: {
            mailbox.disarm(id)
        }
        if let outcome { throw outcome }
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

/// A statement the connection's thread runs every `period` (`PostgresConnection.repeating`); its
/// caller waits on `answer` until a run fails (the error), it is disarmed or the connection closes.
struct Beacon: Sendable {
    let id: UUID
    let period: Duration
    var next: ContinuousClock.Instant
    let answer: CheckedContinuation<PostgresError?, Never>
    /// One run on the connection's thread: nil when it worked.
    let run: @Sendable (PostgresSession) -> PostgresError?
}

/// What the callers and the connection's thread share: the posted jobs, the beacon, the wake pipe
/// the thread polls beside the server's socket, and who waits for the thread's end.
private final class Mailbox: Sendable {
    private struct Posted {
        var pending: [PostgresConnection.Job] = []
        var beacon: Beacon?
        /// Disarmed before it was armed (a task cancelled at once): not armed when it comes.
        var disarmed: Set<UUID> = []
        var closing = false
    }
    private let jobs = Mutex(Posted())
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

    /// False once closing. A beacon already armed is replaced: its caller returns.
    func arm(_ beacon: Beacon) -> Bool {
        let (accepted, replaced) = jobs.withLock { state -> (Bool, Beacon?) in
            guard !state.closing else { return (false, nil) }
            if state.disarmed.remove(beacon.id) != nil { return (true, beacon) }
            defer { state.beacon = beacon }
            return (true, state.beacon)
        }
        replaced?.answer.resume(returning: nil)
        if accepted { wake.wake() }
        return accepted
    }

    /// The beacon's caller was cancelled: it returns now.
    func disarm(_ id: UUID) {
        let taken = jobs.withLock { state -> Beacon? in
            guard let beacon = state.beacon, beacon.id == id else {
                state.disarmed.insert(id)
                return nil
            }
            state.beacon = nil
            return beacon
        }
        taken?.answer.resume(returning: nil)
    }

    func close() {
        let beacon = jobs.withLock { state -> Beacon? in
            state.closing = true
            defer { state.beacon = nil }
            return state.beacon
        }
        beacon?.answer.resume(returning: PostgresError(.lost, "the site's database connection is closed"))
        wake.wake()
    }

    /// The beacon's run when it is due: it goes on from a run that worked, and ends (its caller
    /// told why) at one that failed.
    private func runBeaconIfDue(_ session: PostgresSession) {
        guard let due = jobs.withLock({ state -> Beacon? in
            guard let beacon = state.beacon, beacon.next <= .now else { return nil }
            return beacon
        }) else { return }
        session.deadline = .now + session.target.timeout
        let failure = due.run(session)
        let ended = jobs.withLock { state -> Bool in
            guard state.beacon?.id == due.id else { return false } // disarmed or replaced meanwhile
            if failure != nil {
                state.beacon = nil
                return true
            }
            state.beacon?.next = .now + due.period
            return false
        }
        if ended { due.answer.resume(returning: failure) }
    }

    /// How long the thread may sleep: until the beacon's next run, a second while a listener
    /// waits to reconnect, else until woken (-1).
    private func sleepMilliseconds(_ session: PostgresSession) -> Int32 {
        var limit: Int32 = session.wantsResume ? 1000 : -1
        if let next = jobs.withLock({ $0.beacon?.next }) {
            let beacon = ContinuousClock.now.duration(to: next).pollMilliseconds
            limit = limit < 0 ? beacon : min(limit, beacon)
        }
        return limit
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
            runBeaconIfDue(session)
            var fds = [pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)]
            if let socket = session.socket { fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
            _ = poll(&fds, nfds_t(fds.count), sleepMilliseconds(session))
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
