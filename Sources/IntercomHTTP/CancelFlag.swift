import Synchronization

/// Set from a task-cancellation handler, read by curl's progress callback on the transfer thread.
final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func cancel() { flag.store(true, ordering: .relaxed) }
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
