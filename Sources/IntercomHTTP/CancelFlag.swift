import Synchronization

/// Set from a task-cancellation handler; read on the loop thread when a transfer is about to
/// start and by the write callback, so a cancel that overtakes its transfer's start still counts.
final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func cancel() { flag.store(true, ordering: .relaxed) }
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
