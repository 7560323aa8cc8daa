import Foundation
import Synchronization

/// The waits for the next change of the engine's calls (`CallWait.wait(for:upTo:until:on:)`).
/// Sendable, so a cancelled wait resumes itself from its cancel handler, which runs outside the
/// actor, with no task of its own to reach it. A version number closes the gap between the
/// actor reading the calls and the wait registering: a change in between returns at once.
final class CallChanges: Sendable {
    private struct State {
        var version: UInt64 = 0
        var waiting: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// The version now; a wait given it returns at the first change after.
    var version: UInt64 { state.withLock { $0.version } }

    /// Wakes every wait: the calls changed, or a wait's time ran out.
    func changed() {
        let waiting = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.version &+= 1
            defer { s.waiting = [:] }
            return Array(s.waiting.values)
        }
        for resume in waiting { resume.resume() }
    }

    /// Returns at the first change since `seen`, or when the waiting task is cancelled.
    func next(after seen: UInt64) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
                // Under the lock the cancel handler takes: a cancel either finds the wait or is seen here.
                let now = state.withLock { s -> Bool in
                    if s.version != seen || Task.isCancelled { return true }
                    s.waiting[id] = resume
                    return false
                }
                if now { resume.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
    }
}
