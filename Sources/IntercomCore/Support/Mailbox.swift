import Foundation

/// A queue of jobs for one thread that also sleeps until work arrives or a deadline passes.
/// The owning thread calls `wait(until:)`; any thread may `post`.
final class Mailbox<Job: Sendable>: @unchecked Sendable {
    // NSCondition guards `jobs`; @unchecked because NSCondition predates Sendable.
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var closed = false

    /// False once the mailbox is closed: the job was not queued.
    @discardableResult
    func post(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// Returns the queued jobs, waiting for one at most until `deadline`.
    func take(waitingUntil deadline: Date) -> [Job] {
        condition.lock()
        defer { condition.unlock() }
        if jobs.isEmpty && !closed { _ = condition.wait(until: deadline) }
        let taken = jobs
        jobs.removeAll(keepingCapacity: true)
        return taken
    }

    /// Refuses further jobs; returns those still queued so the owner can fail them.
    func close() -> [Job] {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.signal()
        let rest = jobs
        jobs.removeAll()
        return rest
    }
}
