import Dispatch

/// Holds each decoded frame back until its presentation time, against a monotonic clock. HLS
/// (whole segments arrive at once), archives and files decode far faster than real time; RTSP
/// arrives at the source's own pace and is never held.
///
/// The first frame anchors the clock; a jump in the timestamps (a new segment restarting them, a
/// discontinuity) or falling more than `maxLag` behind (a slow download) anchors it again, so
/// playback resumes at once instead of racing to catch up or waiting out a gap.
struct TimestampPacer {
    static let maxLag = 1.0
    static let maxJump = 5.0
    private var anchor: (pts: Double, wall: UInt64)?

    /// Seconds to wait before showing a frame with presentation time `pts` (seconds); 0 = now.
    mutating func delay(for pts: Double, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Double {
        guard let anchor else {
            self.anchor = (pts, now)
            return 0
        }
        let due = Double(anchor.wall) / 1e9 + (pts - anchor.pts)
        let wait = due - Double(now) / 1e9
        if pts < anchor.pts || wait > Self.maxJump || wait < -Self.maxLag {
            self.anchor = (pts, now)
            return 0
        }
        return max(0, wait)
    }
}
