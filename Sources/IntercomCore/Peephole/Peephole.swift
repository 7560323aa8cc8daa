import Foundation
import IntercomBase
import IntercomImaging
import IntercomPanel
import IntercomPhone

/// The slideshow a resident sees before answering: the panel's JPEG snapshot polled at
/// `fps`, one request in flight at most, the next one starting at the slot after the last
/// began — or at once when the panel was slower than the slot, so a slow panel slows the
/// peephole down instead of piling up requests. While the panel's live stream plays (its frames
/// reach the hub), no snapshot is fetched after the first: the stream is the better picture, and
/// the snapshots come back by themselves within `PeepholeHub.liveHold` of the stream stopping.
struct Peephole: Sendable {
    var panel: any PanelService
    var call: CallID?
    var fps: Double
    /// Decode scaled in the DCT to cover this size; nil decodes at full size.
    var decodeSize: PixelSize?
    var hub: PeepholeHub
    var logger: Logger
    /// Paces the polls and dates the pictures.
    var clock: any EngineClock = SystemClock()

    /// The size to decode the next snapshot at. Watched without a call (the kiosk's tiles), a panel
    /// is decoded to cover what its viewer draws (`PeepholeHub.want`), at most `decodeSize`: a
    /// hundred tiles then hold small pictures, not 0.9 MB of 640×480 RGB each, and decode faster.
    /// A ringing call keeps `decodeSize`: its picture is the one that matters (and the journal keeps
    /// the JPEG either way).
    private var target: PixelSize? {
        guard call == nil, let wanted = hub.wantedSize(panel: panel.name) else { return decodeSize }
        guard let cap = decodeSize else { return wanted }
        return PixelSize(width: min(wanted.width, cap.width), height: min(wanted.height, cap.height))
    }

    /// Reported about once a second with the size and the measured rate.
    typealias Report = @Sendable (_ width: Int, _ height: Int, _ fps: Double) async -> Void
    /// Runs until cancelled (the call ended, the view closed), or until `callVideo` carries this
    /// call's own video: the call's pictures took over. Looked at after each frame without a hop
    /// into the engine: the hub is the one place the phone publishes video.
    func run(report: Report, callVideo: VideoFrameHub? = nil) async {
        let slot = 1 / max(0.1, fps)
        var sequence = 0
        var recent: [Date] = []
        var lastReport = Date.distantPast
        var lastError: String?
        while !Task.isCancelled {
            let started = clock.date
            if sequence > 0, hub.isLive(panel: panel.name, at: started) {
                if let call, callVideo?.latest?.call == call { return }
                try? await clock.sleep(seconds: min(slot, 0.2))
                continue
            }
            do {
                let jpeg = try await panel.snapshot()
                let image = try JPEG.decode(jpeg, covering: target)
                guard !Task.isCancelled else { return }
                sequence += 1
                let now = clock.date
                hub.publish(PeepholeFrame(panel: panel.name, call: call, jpeg: jpeg, image: image,
                                          sequence: sequence, fetchedAt: now, kind: .snapshot))
                lastError = nil
                recent.append(now)
                recent.removeAll { now.timeIntervalSince($0) > 3 }
                if now.timeIntervalSince(lastReport) >= 1 {
                    lastReport = now
                    let span = recent.count > 1 ? now.timeIntervalSince(recent[0]) : 0
                    let measured = span > 0 ? Double(recent.count - 1) / span : 0
                    await report(image.width, image.height, measured)
                }
            } catch let error as JPEGError {
                logger.debug("peephole \(panel.name): skipped a bad picture (\(error))")
            } catch {
                let text = "\(error)"
                hub.report(panel: panel.name, problem: text)
                if text != lastError { logger.warning("peephole \(panel.name): \(text)") }
                lastError = text
            }
            if let call, callVideo?.latest?.call == call { return }
            let wait = slot - clock.date.timeIntervalSince(started)
            if wait > 0 { try? await clock.sleep(seconds: wait) }
        }
    }
}
