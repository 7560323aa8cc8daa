import Foundation
import IntercomBase
import IntercomPanel
import IntercomModel

/// Panels watched without a call: their alarm streams (the daemon), and their pictures for the
/// kiosk and `intercom watch` (snapshots, and live streams where a viewer asked for a size).
extension Intercom {
    /// Follows every panel's alarm stream (button, motion, door relay) and its reachability,
    /// reported as `panel_event`, `panel_unreachable` and `panel_reachable`.
    public func watchPanels() {
        guard !watchingAlarms else { return }
        watchingAlarms = true
        for (name, client) in panels.sorted(by: { $0.key < $1.key }) {
            let stream = client.alarmFeed()
            tasks.start {
                // The stream object lives as long as this task reads it.
                for await event in stream.events {
                    switch event {
                    case .connected:
                        self.logger.info("panel \(name): alarm stream connected")
                    case .alarm(let alarm):
                        await self.publish(.panelEvent(panel: name, kind: alarm.kind.rawValue, state: alarm.active ? "on" : "off"))
                    case .unreachable(let error):
                        await self.publish(.panelUnreachable(panel: name, error: error.description))
                    case .reachable:
                        await self.publish(.panelReachable(panel: name))
                    case .noAlarmStream(let error):
                        // No event in the vocabulary fits (the panel is reachable): said once, in the log.
                        self.logger.warning("\(error)")
                    }
                }
                withExtendedLifetime(stream) {}
            }
        }
    }

    /// Shows panels without a call (the union of the subscribers' `watch` commands, never called
    /// by a face itself) in the `peephole` hub: each
    /// panel's `live` stream when it has one and a viewer asked for a size (`PeepholeHub.want`),
    /// and its snapshots polled at `fps` until the stream plays and whenever it does not. Calling
    /// it again replaces the set, and returns once the streams it replaced have stopped. `fullSize`
    /// decodes snapshots whole (a pixel-mode picture over the whole window) instead of at most 640×480.
    func watch(panels names: [String], fps: Double, fullSize: Bool = false, live: LiveStreamChoice? = nil) async {
        for task in watchers { task.cancel() }
        let stopping = liveWatchers
        for task in stopping { task.cancel() }
        watchers = names.compactMap { name in
            guard let client = panels[name] else { return nil }
            let peephole = Peephole(panel: client, call: nil, fps: fps, decodeSize: fullSize ? nil : peepholeDecodeSize,
                                    hub: self.peephole, logger: logger, clock: clock)
            return tasks.start { await peephole.run(report: { _, _, _ in }) }
        }
        liveWatchers = live.map { choice in
            names.compactMap { name in
                livePicture(panel: name, stream: choice, call: nil).flatMap { picture in tasks.start { await picture.run() } }
            }
        } ?? []
        for task in stopping { await task.value }
    }
}
