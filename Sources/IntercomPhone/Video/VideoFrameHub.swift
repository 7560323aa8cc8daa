import Foundation
import Synchronization
import IntercomBase

/// Where decoded call video crosses from mediastreamer's ticker thread to the rest of the program.
/// The ticker thread only copies pixels and calls subscribers under a lock; it never touches the core.
public final class VideoFrameHub: Sendable {
    public typealias Handler = @Sendable (VideoFrame) -> Void

    private struct State {
        var latest: VideoFrame?
        var sequence: UInt64 = 0
        var call: CallID?
        var handlers: [UInt64: Handler] = [:]
        var nextToken: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Calls `handler` on the media thread with every new frame; keep it short.
    /// The returned token ends the subscription when passed to `unsubscribe`.
    @discardableResult
    public func subscribe(_ handler: @escaping Handler) -> UInt64 {
        state.withLock { s in
            s.nextToken += 1
            s.handlers[s.nextToken] = handler
            return s.nextToken
        }
    }

    public func unsubscribe(_ token: UInt64) {
        _ = state.withLock { $0.handlers.removeValue(forKey: token) }
    }

    /// The newest frame, if any arrived since the current call began.
    public var latest: VideoFrame? { state.withLock { $0.latest } }

    /// Set by the phone thread: frames belong to the call whose video is being shown.
    func setCurrentCall(_ call: CallID?) {
        state.withLock { s in
            if s.call != call { s.latest = nil }
            s.call = call
        }
    }

    /// Called on the media thread.
    func publish(width: Int, height: Int,
                 y: UnsafePointer<UInt8>, yStride: Int,
                 u: UnsafePointer<UInt8>, uStride: Int,
                 v: UnsafePointer<UInt8>, vStride: Int) {
        guard width > 0, height > 0 else { return }
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        var pixels = [UInt8](repeating: 0, count: width * height + 2 * cw * ch)
        pixels.withUnsafeMutableBufferPointer { dst in
            guard let base = dst.baseAddress else { return }
            for row in 0..<height { (base + row * width).update(from: y + row * yStride, count: width) }
            let uBase = base + width * height
            let vBase = uBase + cw * ch
            for row in 0..<ch {
                (uBase + row * cw).update(from: u + row * uStride, count: cw)
                (vBase + row * cw).update(from: v + row * vStride, count: cw)
            }
        }
        let (frame, handlers) = state.withLock { s -> (VideoFrame, [Handler]) in
            s.sequence += 1
            let frame = VideoFrame(width: width, height: height, i420: pixels, sequence: s.sequence, call: s.call)
            s.latest = frame
            return (frame, Array(s.handlers.values))
        }
        for handler in handlers { handler(frame) }
    }
}
