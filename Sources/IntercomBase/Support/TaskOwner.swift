import Synchronization

/// The tasks one owner started — a call, the engine, a control connection — so that none
/// outlives it: each is held from its start until its body returns, a task started in a named
/// slot replaces (cancels) the slot's previous one, and `end()` cancels them all and returns once
/// every one has returned. An ended owner starts nothing more: a late start (an event handled
/// after the call ended, a refresh asked for while the engine stops) is refused.
package final class TaskOwner: Sendable {
    private struct State {
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var slots: [String: UInt64] = [:]
        var next: UInt64 = 0
        var ended = false
    }

    /// What the census counts the tasks under (`call fake1`, `engine`).
    package let label: String
    private let census: TaskCensus?
    private let state = Mutex(State())

    package init(_ label: String, census: TaskCensus? = nil) {
        self.label = label
        self.census = census
    }

    /// Starts `body` as a task of this owner (in `slot`, replacing the slot's task); nil, and
    /// nothing started, once the owner has ended.
    @discardableResult
    package func start(_ slot: String? = nil, _ body: @escaping @Sendable () async -> Void) -> Task<Void, Never>? {
        // Made under the lock, so the task cannot report its end before it is held.
        let (task, replaced) = state.withLock { s -> (Task<Void, Never>?, Task<Void, Never>?) in
            guard !s.ended else { return (nil, nil) }
            s.next += 1
            let token = s.next
            census?.started(label)
            let task = Task {
                await body()
                self.finished(token)
            }
            s.tasks[token] = task
            guard let slot, let previous = s.slots.updateValue(token, forKey: slot) else { return (task, nil) }
            return (task, s.tasks[previous])
        }
        replaced?.cancel()
        return task
    }

    /// Whether the owner has ended (`close`, `end`, `drain`).
    package var isEnded: Bool { state.withLock { $0.ended } }

    /// Whether the slot's task is still running.
    package func has(_ slot: String) -> Bool { state.withLock { $0.slots[slot] != nil } }

    /// Cancels the slot's task (it leaves the owner once its body returns).
    package func cancel(_ slot: String) {
        state.withLock { s in s.slots.removeValue(forKey: slot).flatMap { s.tasks[$0] } }?.cancel()
    }

    /// Ends the owner without waiting: every task is cancelled, none starts any more.
    package func close() {
        let running = state.withLock { s -> [Task<Void, Never>] in
            s.ended = true
            s.slots = [:]
            return Array(s.tasks.values)
        }
        for task in running { task.cancel() }
    }

    /// Ends the owner and returns once every task it held has returned.
    package func end() async {
        close()
        while let task = state.withLock({ $0.tasks.values.first }) { await task.value }
    }

    /// Ends the owner without cancelling: none starts any more, and this returns once every one
    /// running has run to its end (a hook's program, which has a timeout of its own).
    package func drain() async {
        state.withLock { $0.ended = true }
        while let task = state.withLock({ $0.tasks.values.first }) { await task.value }
    }

    /// Returns once every task running, and any started meanwhile, has returned; unlike `drain`
    /// the owner goes on (the journal recorder settles before a test reads the journal).
    package func settle() async {
        while let task = state.withLock({ $0.tasks.values.first }) { await task.value }
    }

    /// Tasks started and not yet returned.
    package var running: Int { state.withLock { $0.tasks.count } }

    private func finished(_ token: UInt64) {
        // The census is told under the same lock that lets the task go: otherwise `end()` could
        // return (no task held) before the census heard of the end, and a look at the census right
        // after `stop()` would still count it (seen under load in CallTaskOwnershipTests).
        state.withLock { s in
            s.tasks[token] = nil
            if let slot = s.slots.first(where: { $0.value == token })?.key { s.slots[slot] = nil }
            census?.finished(label)
        }
    }
}

/// How many tasks run now under each owner's label: what the tests look at to hold that no task
/// outlives its call and none outlives `Intercom.stop()`. Only running tasks are counted, so it
/// stays as small as the work in progress.
package final class TaskCensus: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    package init() {}

    /// Tasks running under `label` now.
    package func running(_ label: String) -> Int { counts.withLock { $0[label] ?? 0 } }

    /// Every running task, by label (empty when none runs).
    package var all: [String: Int] { counts.withLock { $0 } }

    fileprivate func started(_ label: String) { counts.withLock { $0[label, default: 0] += 1 } }

    fileprivate func finished(_ label: String) {
        counts.withLock { counts in
            let left = (counts[label] ?? 1) - 1
            counts[label] = left > 0 ? left : nil
        }
    }
}
