import Foundation
import IntercomBase
import IntercomImaging
import Synchronization

/// Where panel pictures meet their viewers — snapshots and live stream frames alike: the newest
/// frame per panel, which viewers read at their own pace. The newest frame wins; nothing queues
/// behind a slow viewer. Viewers tell it the pixel size they draw a panel at (`want`), which
/// the live stream is decoded and scaled to, and may ask to be woken on each new frame.
public final class PeepholeHub: Sendable {
    private struct PanelState {
        var latest: PeepholeFrame?
        var latestSnapshot: PeepholeFrame?
        var sequence = 0
        var problem: String?
        var streamNote: String?
        var lastLive: Date?
        var wanted: PixelSize?
        /// Whether the viewer wants the live stream too, or the stills alone (a kiosk tile beyond
        /// the screen's live budget, a panel paged away).
        var liveWanted = false
    }

    private let panels = Mutex<[String: PanelState]>([:])
    private let wakers = Mutex<[UUID: @Sendable (String) -> Void]>([:])
    /// Live pictures waiting for a viewer of their panel (`waitForViewer`).
    private let viewerWaits = Mutex<[UUID: (panel: String, resume: CheckedContinuation<Void, Never>)]>([:])
    /// How many times a live picture began to wait for a viewer: a wait that woke with nothing to
    /// do (a poll) would show as a second one (`LiveViewerWaitTests`).
    let viewerWaitsBegun = Atomic<Int>(0)

    /// How long after its last frame a live stream still counts as playing: the snapshots stay
    /// paused that long, and come back when a stream stalls.
    static let liveHold: TimeInterval = 1

    public init() {}

    public func latest(panel: String) -> PeepholeFrame? { panels.withLock { $0[panel]?.latest } }

    /// The newest JPEG snapshot (the journal keeps JPEGs; live frames have none).
    public func latestSnapshot(panel: String) -> PeepholeFrame? { panels.withLock { $0[panel]?.latestSnapshot } }

    /// Why the panel's last snapshot failed; nil once one arrives again (`intercom watch` shows it).
    public func problem(panel: String) -> String? { panels.withLock { $0[panel]?.problem } }

    /// Why the live stream is not playing (one line ending in "showing snapshots"); nil while it plays.
    public func streamNote(panel: String) -> String? { panels.withLock { $0[panel]?.streamNote } }

    /// The call's newest picture worth keeping in the journal: the live stream's frame when it
    /// is newer than the call's last snapshot and at least as large (a stream scaled down for
    /// terminal cells is a worse picture than the panel's JPEG), else that snapshot. A live frame
    /// of the panel shown without a call (a kiosk tile) counts for the call too.
    public func journalPicture(panel: String, call: CallID) -> PeepholeFrame? {
        panels.withLock { all -> PeepholeFrame? in
            guard let state = all[panel] else { return nil }
            let snapshot = state.latestSnapshot.flatMap { $0.call == call ? $0 : nil }
            guard let live = state.latest, live.kind == .live, live.call == call || live.call == nil else { return snapshot }
            guard let snapshot else { return live }
            let larger = live.image.width * live.image.height >= snapshot.image.width * snapshot.image.height
            return larger && live.fetchedAt > snapshot.fetchedAt ? live : snapshot
        }
    }

    /// Whether a live frame of the panel came within `liveHold`.
    public func isLive(panel: String, at now: Date = Date()) -> Bool {
        panels.withLock { $0[panel]?.lastLive.map { now.timeIntervalSince($0) < Self.liveHold } ?? false }
    }

    /// A viewer draws the panel at this pixel size: the live stream is scaled to fit inside it
    /// (`live`), or only the stills are decoded for it (`live: false` stops a stream that plays).
    /// Until a viewer says so, nobody looks, and no live stream is played (the daemon).
    public func want(panel: String, size: PixelSize, live: Bool = true) {
        let started = panels.withLock { all -> Bool in
            var state = all[panel, default: PanelState()]
            let started = live && !state.liveWanted
            state.wanted = size
            state.liveWanted = live
            all[panel] = state
            return started
        }
        guard started else { return }
        let waiting = viewerWaits.withLock { waits in
            let ids = waits.filter { $0.value.panel == panel }.map(\.key)
            return ids.compactMap { waits.removeValue(forKey: $0)?.resume }
        }
        for resume in waiting { resume.resume() }
    }

    /// The size a viewer wants the panel's live stream at; nil while no viewer wants it live.
    public func liveSize(panel: String) -> PixelSize? {
        panels.withLock { all in all[panel].flatMap { $0.liveWanted ? $0.wanted : nil } }
    }

    /// Returns once a viewer wants the panel live (at once if one does), or the task is
    /// cancelled: a live picture sleeps here instead of polling, so a daemon, which never draws,
    /// spends nothing on a ringing panel's stream, and a screen's first `want` starts it at once.
    func waitForViewer(panel: String) async {
        let id = UUID()
        viewerWaitsBegun.add(1, ordering: .relaxed)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
                viewerWaits.withLock { $0[id] = (panel, resume) }
                // A viewer that came (or a cancel) between the caller's look and this wait.
                if liveSize(panel: panel) != nil || Task.isCancelled { endWait(id) }
            }
        } onCancel: {
            endWait(id)
        }
    }

    /// Live pictures of `panel` waiting for a viewer now.
    func viewerWaitsPending(panel: String) -> Int {
        viewerWaits.withLock { $0.values.filter { $0.panel == panel }.count }
    }

    private func endWait(_ id: UUID) {
        viewerWaits.withLock { $0.removeValue(forKey: id) }?.resume.resume()
    }

    public func wantedSize(panel: String) -> PixelSize? { panels.withLock { $0[panel]?.wanted } }

    /// Calls `wake` with the panel's name after every new frame of any panel until `removeWaker`
    /// (a screen that sleeps until there is something to draw).
    public func addWaker(_ wake: @escaping @Sendable (String) -> Void) -> UUID {
        let id = UUID()
        wakers.withLock { $0[id] = wake }
        return id
    }

    public func removeWaker(_ id: UUID) { _ = wakers.withLock { $0.removeValue(forKey: id) } }

    /// Stores the frame as the panel's newest, numbered after the panel's last one. A snapshot
    /// that lands while the stream plays is kept for the journal but not shown: it would flash
    /// an older picture between two live frames.
    func publish(_ frame: PeepholeFrame) {
        var frame = frame
        panels.withLock { all in
            var state = all[frame.panel] ?? PanelState()
            state.problem = nil
            switch frame.kind {
            case .snapshot:
                let live = state.lastLive.map { frame.fetchedAt.timeIntervalSince($0) < Self.liveHold } ?? false
                if !live {
                    state.sequence += 1
                    frame.sequence = state.sequence
                    state.latest = frame
                }
                state.latestSnapshot = frame
            case .live:
                state.sequence += 1
                frame.sequence = state.sequence
                state.latest = frame
                state.lastLive = frame.fetchedAt
                state.streamNote = nil
            }
            all[frame.panel] = state
        }
        for wake in wakers.withLock({ Array($0.values) }) { wake(frame.panel) }
    }

    func report(panel: String, problem: String) {
        panels.withLock { $0[panel, default: PanelState()].problem = problem }
    }

    func reportStream(panel: String, note: String?) {
        panels.withLock { $0[panel, default: PanelState()].streamNote = note }
    }
}
