import Foundation
import IntercomEngine

/// The panels attached screens show without a call (the kiosk's tiles), per connection: the
/// engine watches their union (`Intercom.watch` keeps one set), at the fastest rate any asked
/// for, and stops each panel once no screen shows it.
actor WatchedPanels {
    private let intercom: Intercom
    private var byConnection: [Int: (panels: [String], fps: Double)] = [:]
    private var applied: ([String], Double) = ([], 0)

    init(intercom: Intercom) { self.intercom = intercom }

    func set(_ number: Int, panels: [String], fps: Double) async {
        byConnection[number] = panels.isEmpty ? nil : (panels, fps)
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
        let fps = byConnection.values.map(\.fps).max() ?? 1
        guard union != applied.0 || fps != applied.1 else { return }
        applied = (union, fps)
        await intercom.watch(panels: union, fps: fps, live: union.isEmpty ? nil : .sub)
    }
}
