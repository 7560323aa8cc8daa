import Dispatch
import Synchronization

/// What FFmpeg's interrupt callback reads before and during every blocking call: a stop request
/// from any thread, and the deadline of the current call. FFmpeg reports a timeout during RTSP
/// setup as "invalid data", so `deadlineHit` remembers that it was us, to say "did not answer".
final class InterruptState: Sendable {
    private let stopRequested = Atomic<Bool>(false)
    /// Monotonic nanoseconds; 0 = no deadline.
    private let deadline = Atomic<UInt64>(0)
    private let hit = Atomic<Bool>(false)
    /// The stream's demuxer asked for a URL it may not open (`StreamOpenGuard`): the open or read
    /// in progress ends now instead of trying the next segment.
    private let refused = Atomic<Bool>(false)

    func requestStop() { stopRequested.store(true, ordering: .releasing) }
    func cutShort() { refused.store(true, ordering: .releasing) }
    var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    /// Re-armed before each blocking call (open, each read).
    func arm(_ timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        let nanos = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        hit.store(false, ordering: .relaxed)
        deadline.store(DispatchTime.now().uptimeNanoseconds + nanos, ordering: .relaxed)
    }

    var deadlineHit: Bool { hit.load(ordering: .relaxed) }

    /// FFmpeg's answer: nonzero aborts the blocking call.
    func shouldInterrupt() -> Bool {
        if isStopRequested || refused.load(ordering: .acquiring) { return true }
        let limit = deadline.load(ordering: .relaxed)
        if limit != 0, DispatchTime.now().uptimeNanoseconds >= limit {
            hit.store(true, ordering: .relaxed)
            return true
        }
        return false
    }
}
