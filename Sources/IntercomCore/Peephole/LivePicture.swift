import Foundation
import IntercomBase
import IntercomImaging
import IntercomPhone
import IntercomVideo

/// A panel's camera played live (RTSP) into the same hub as the snapshots, at the size the viewer
/// asked for (`PeepholeHub.want`), scaled by the decoder. It plays only while a viewer has asked:
/// a daemon, which draws nothing, decodes nothing. When the stream cannot open or stops it says
/// so once (the log and `PeepholeHub.streamNote`), the snapshot peephole beside it carries on,
/// and the stream is tried again by itself, 1 s doubling to 30 s, so the picture comes back
/// when the panel does. Runs until cancelled; the decode thread is stopped and waited for.
struct LivePicture: Sendable {
    var panel: String
    var source: VideoSource
    /// The ringing call it plays for; nil for `intercom watch` and the kiosk.
    var call: CallID?
    var hub: PeepholeHub
    var logger: Logger
    /// Another player's stream of this panel (the kiosk's tile) is enough for a call: no second one.
    var yieldsToOtherStreams = false
    /// A panel's snapshots stand in while its stream is down; an operator camera has none.
    var hasSnapshots = true
    /// What the viewer's line says happens meanwhile.
    var standIn: String { hasSnapshots ? "showing snapshots" : "trying again" }
    /// A recording (an operator camera's archive) ends for good at its end instead of being tried again.
    var endsAtEnd = false
    /// How the log names the source: `panel porch`, `camera home:cam:1`.
    var noun = "panel"
    /// The config key that sets this stream (`[panel porch] rtsp`): a viewer's line then names the
    /// stream's URL (never its password) and the key to fix. Nil for an operator camera.
    var fixKey: String?
    /// Opens the stream (FFmpeg in production).
    var video: any LiveVideoService = FFmpegVideoService()
    /// Paces the retries and dates the frames.
    var clock: any EngineClock = SystemClock()

    /// Plays through the engine's live video and clock (the fakes' in tests).
    mutating func use(_ services: IntercomServices) {
        video = services.video
        clock = services.clock
    }

    /// An operator camera's stream (HLS): no snapshots stand in, and the log names it a camera.
    static func camera(_ name: String, source: VideoSource, call: CallID?, hub: PeepholeHub, logger: Logger) -> LivePicture {
        var picture = LivePicture(panel: name, source: source, call: call, hub: hub, logger: logger)
        picture.hasSnapshots = false
        picture.noun = "camera"
        return picture
    }

    /// The decode threads of live pictures, told apart from other streams' in `top -H`.
    static let threadName = "intercom.live"

    static let firstRetry: Duration = .seconds(1)
    static let longestRetry: Duration = .seconds(30)

    /// The wait before the next attempt after `previous` (nil: the first failure).
    static func retryDelay(after previous: Duration?) -> Duration {
        guard let previous else { return firstRetry }
        return min(longestRetry, previous * 2)
    }

    /// The one line a viewer sees while the snapshots stand in for the stream. With `fix` (a
    /// panel's stream: its URL without credentials, and the key that sets it) the line names both,
    /// kept short so that it fits beside the panel's name on an 80-column status line.
    static func fallbackLine(_ error: VideoError, standIn: String = "showing snapshots",
                             credentials: String = "the user/password", fix: (url: String, key: String)? = nil) -> String {
        if let fix {
            // The reason's first clause: "connection refused", "no answer within 10 s", "the server has no such stream".
            func short(_ reason: String) -> String { reason.components(separatedBy: ": ").first ?? reason }
            let section = fix.key.components(separatedBy: "] ").first.map { $0 + "]" } ?? fix.key
            switch error {
            case .authRefused: return "\(fix.url) refused \(credentials); fix \(section) user/password: \(standIn)"
            case .unavailable(_, let reason): return "\(fix.url): \(short(reason)); fix \(fix.key): \(standIn)"
            case .ended(_, let reason): return "\(fix.url) stopped (\(short(reason))): \(standIn)"
            case .badData(_, let reason): return "\(fix.url) cannot be played (\(short(reason))); fix \(fix.key): \(standIn)"
            }
        }
        switch error {
        case .authRefused: return "live stream refused \(credentials): \(standIn)"
        case .unavailable(_, let reason): return "live stream unavailable (\(reason)): \(standIn)"
        case .ended(_, let reason): return "live stream stopped (\(reason)): \(standIn)"
        case .badData(_, let reason): return "live stream cannot be played (\(reason)): \(standIn)"
        }
    }

    /// `callVideo`: once it carries this call's own video, the call's pictures took over: return.
    func run(callVideo: VideoFrameHub? = nil) async {
        var delay: Duration?
        var announced: String?
        while !Task.isCancelled {
            guard let size = hub.liveSize(panel: panel) else {
                await hub.waitForViewer(panel: panel)
                continue
            }
            if yieldsToOtherStreams, hub.isLive(panel: panel, at: clock.date) {
                // Another player's frames of this panel (a kiosk tile) are enough while they come.
                try? await clock.sleep(for: .milliseconds(200))
                continue
            }
            let stream = video.open(source, size: size, threadName: Self.threadName)
            var played = false
            var unwanted = false
            var failure: VideoError?
            do {
                for try await image in stream.frames {
                    // The viewer stopped wanting it live (paged away, over the live budget): stop, wait again.
                    guard let wanted = hub.liveSize(panel: panel) else {
                        unwanted = true
                        break
                    }
                    if wanted != stream.requestedSize { stream.resize(to: wanted) }
                    hub.publish(PeepholeFrame(panel: panel, call: call, jpeg: nil, image: image, sequence: 0,
                                              fetchedAt: clock.date, kind: .live))
                    if !played {
                        played = true
                        delay = nil
                        if announced != nil { logger.notice("\(noun) \(panel): live stream playing again") }
                        announced = nil
                    }
                    if let call, callVideo?.latest?.call == call { break }
                }
            } catch let error as VideoError {
                failure = error
            } catch {
                failure = .ended(stream: source.displayName, reason: "\(error)")
            }
            await stream.stop()
            if let call, callVideo?.latest?.call == call { return }
            guard !Task.isCancelled else { return }
            if unwanted { continue }
            if endsAtEnd, played, case .ended = failure {
                hub.reportStream(panel: panel, note: "the recording ended")
                return
            }
            // A panel logs in with its user and password; an operator camera's URL carries a token.
            let credentials = hasSnapshots ? "the user/password" : "the camera's token (it may have expired: watch again)"
            let fix = fixKey.map { (url: source.displayName, key: $0) }
            let line = failure.map { Self.fallbackLine($0, standIn: standIn, credentials: credentials, fix: fix) }
                ?? "live stream stopped: \(standIn)"
            hub.reportStream(panel: panel, note: line)
            if line != announced {
                // Logged once per cause, not at every retry; the description names the stream, never the password.
                logger.warning("\(noun) \(panel): \(failure.map { "\($0)" } ?? "the live stream stopped"); "
                               + (hasSnapshots ? "showing snapshots and " : "") + "trying the stream again by itself")
                announced = line
            }
            let wait = Self.retryDelay(after: played ? nil : delay)
            delay = wait
            try? await clock.sleep(for: wait)
        }
    }
}
