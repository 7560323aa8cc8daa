import Foundation
import IntercomEngine
import IntercomImaging
import Synchronization

/// What the attached screens ask of each panel's picture, per connection: the pixel size it draws
/// the panel at and whether it wants the live stream. The hub decodes a panel's stream at one size,
/// so it is told the largest any screen asks (each screen's pump scales the picture down to its own)
/// and plays live while any screen asks live; when the last screen stops, the stream stops with it.
final class PanelWants: Sendable {
    struct Want: Sendable, Equatable {
        var size: PixelSize
        var live: Bool
    }

    private let hub: PeepholeHub
    /// By panel, then connection number. The hub is told under this lock, so two screens changing
    /// their wants at once cannot leave the hub with the older merge.
    private let wants = Mutex<[String: [Int: Want]]>([:])

    init(hub: PeepholeHub) { self.hub = hub }

    /// Notes what connection `number` asks of `panel` (nil: nothing any more) and tells the hub.
    func set(_ number: Int, panel: String, _ want: Want?) {
        wants.withLock { all in
            all[panel, default: [:]][number] = want
            apply(panel, all[panel] ?? [:])
            if all[panel]?.isEmpty == true { all[panel] = nil }
        }
    }

    /// Forgets a closed connection: the panels it looked at go on at what the others ask.
    func remove(_ number: Int) {
        wants.withLock { all in
            for (panel, byConnection) in all where byConnection[number] != nil {
                var left = byConnection
                left[number] = nil
                apply(panel, left)
                all[panel] = left.isEmpty ? nil : left
            }
        }
    }

    /// The largest size any screen asks (each side on its own, so every screen's box fits inside
    /// it), live if any asks live; nil when nobody asks.
    static func merged(_ wants: some Collection<Want>) -> Want? {
        guard !wants.isEmpty else { return nil }
        return Want(size: PixelSize(width: wants.map(\.size.width).max() ?? 1, height: wants.map(\.size.height).max() ?? 1),
                    live: wants.contains { $0.live })
    }

    private func apply(_ panel: String, _ byConnection: [Int: Want]) {
        if let merged = Self.merged(byConnection.values) {
            hub.want(panel: panel, size: merged.size, live: merged.live)
        } else if hub.liveSize(panel: panel) != nil {
            // Nobody looks live any more: the stream stops, the stills go on for the journal.
            hub.want(panel: panel, size: hub.wantedSize(panel: panel) ?? PixelSize(width: 320, height: 240), live: false)
        }
    }
}
