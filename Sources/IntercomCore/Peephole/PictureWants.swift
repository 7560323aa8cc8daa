import Foundation
import IntercomBase
import IntercomImaging
import Synchronization

/// What every subscriber asks of each panel's picture (`IntercomCommand.picture`, a screen of the
/// engine's own process through `LocalLink.want`): the pixel box it draws the panel in and whether
/// it wants the live stream. The hub decodes a panel's stream at one size, so it is told the largest
/// any subscriber asks (each side on its own: every box fits inside it, and each screen scales the
/// picture down to its own) and plays live while any asks live; when the last want of a panel goes,
/// its live stream stops and its stills go on (for the journal). Synchronous and lock-held, not the
/// actor's: a screen's thread sets its wants every turn of its loop and cannot wait (DECISIONS
/// "Picture wants are the engine's").
public final class PictureWants: Sendable {
    private let hub: PeepholeHub
    /// By subscriber, then panel. The hub is told under this lock, so two subscribers changing
    /// their wants at once cannot leave the hub with the older merge.
    private let wants = Mutex<[Subscriber: [String: PictureWant]]>([:])

    init(hub: PeepholeHub) { self.hub = hub }

    /// Notes what `subscriber` asks of `panel` (nil: nothing any more) and tells the hub the merge.
    /// Unchecked: the `picture` command checks the panel and the box first; a face of this process
    /// passes what its screen draws.
    public func set(_ subscriber: Subscriber, panel: String, _ want: PictureWant?) {
        wants.withLock { all in
            all[subscriber, default: [:]][panel] = want
            if all[subscriber]?.isEmpty == true { all[subscriber] = nil }
            apply(panel, all)
        }
    }

    /// Forgets `subscriber` whole: the panels it looked at go on at what the others ask.
    public func remove(_ subscriber: Subscriber) {
        wants.withLock { all in
            guard let gone = all.removeValue(forKey: subscriber) else { return }
            for panel in gone.keys.sorted() { apply(panel, all) }
        }
    }

    /// What `subscriber` asks of `panel` now.
    public func want(_ subscriber: Subscriber, panel: String) -> PictureWant? {
        wants.withLock { $0[subscriber]?[panel] }
    }

    /// What the hub is told for `panel`: the merge of every subscriber's want; nil when nobody asks.
    public func merged(panel: String) -> PictureWant? {
        wants.withLock { all in Self.merged(panel, in: all) }
    }

    private static func merged(_ panel: String, in all: [Subscriber: [String: PictureWant]]) -> PictureWant? {
        merged(all.values.compactMap { $0[panel] })
    }

    /// The largest box any want asks (each side on its own, so every box fits inside it), live if
    /// any asks live; nil when nobody asks.
    static func merged(_ wants: some Collection<PictureWant>) -> PictureWant? {
        guard !wants.isEmpty else { return nil }
        return PictureWant(width: wants.map(\.width).max() ?? 1, height: wants.map(\.height).max() ?? 1,
                           live: wants.contains { $0.live })
    }

    /// The size the hub decodes at when the last want of a live panel goes and none was ever told.
    static let stillsSize = PixelSize(width: 320, height: 240)

    private func apply(_ panel: String, _ all: [Subscriber: [String: PictureWant]]) {
        if let merged = Self.merged(panel, in: all) {
            hub.want(panel: panel, size: PixelSize(width: merged.width, height: merged.height), live: merged.live)
        } else if hub.liveSize(panel: panel) != nil {
            // Nobody looks live any more: the stream stops, the stills go on for the journal.
            hub.want(panel: panel, size: hub.wantedSize(panel: panel) ?? Self.stillsSize, live: false)
        }
    }
}
