import Foundation
import IntercomEngine

/// The panels attached screens show without a call (the kiosk's tiles, `watch`), per connection:
/// the engine watches their union (`Intercom.watch` keeps one set), at the fastest rate any asked
/// for, and stops each panel once no screen shows it. The engine plays one stream choice for the
/// set: the sub streams for tiles, the main ones (and snapshots decoded whole) while any `watch`
/// screen shows a panel over its whole window; each tile still gets its own size (`PanelWants`).
actor WatchedPanels {
    private struct Shown: Equatable {
        var panels: [String]
        var fps: Double
        var whole: Bool
    }

    private let intercom: Intercom
    private var byConnection: [Int: Shown] = [:]
    private var applied = Shown(panels: [], fps: 0, whole: false)

    init(intercom: Intercom) { self.intercom = intercom }

    func set(_ number: Int, panels: [String], fps: Double, whole: Bool) async {
        byConnection[number] = panels.isEmpty ? nil : Shown(panels: panels, fps: fps, whole: whole)
        await apply()
    }

    func remove(_ number: Int) async {
        guard byConnection.removeValue(forKey: number) != nil else { return }
        await apply()
    }

    private func apply() async {
        var union: [String] = []
        for entry in byConnection.sorted(by: { $0.key < $1.key }) {
            for panel in entry.value.panels where !union.contains(panel) { union.append(panel) }
        }
        let shown = Shown(panels: union, fps: byConnection.values.map(\.fps).max() ?? 1,
                          whole: byConnection.values.contains { $0.whole })
        guard shown != applied else { return }
        applied = shown
        await intercom.watch(panels: union, fps: shown.fps, fullSize: shown.whole,
                             live: union.isEmpty ? nil : shown.whole ? .main : .sub)
    }
}
