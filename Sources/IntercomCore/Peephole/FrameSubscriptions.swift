import Foundation
import IntercomBase

/// What each subscriber shows without a call (`IntercomCommand.watch`, `.watchCamera`), and what
/// the engine plays for all of them: the union of their panels, at the fastest rate any asked, the
/// whole pictures while any asks them; one player per camera while any subscriber shows it. The
/// rules live here, without the engine, so a screen of its own engine, each control connection and
/// any other face are told apart by their subscriber alone (DECISIONS "Frame subscriptions").
struct FrameSubscriptions: Sendable {
    /// One subscriber's panels, or the union of everyone's.
    struct Panels: Sendable, Equatable {
        var names: [String]
        var fps: Double
        var whole: Bool

        static let nothing = Panels(names: [], fps: 1, whole: false)
    }

    /// In the order the subscribers first asked, so the union keeps a stable order.
    private(set) var panels: [(subscriber: Subscriber, shown: Panels)] = []
    private(set) var cameras: [Subscriber: String] = [:]
    /// The union the engine plays now (`Subscriptions.watch` was last called with it).
    var applied = Panels.nothing
    /// The camera players, by camera id: the view they play and their task (the engine's).
    var players: [String: (view: OperatorCameraView, task: Task<Void, Never>)] = [:]

    /// `subscriber` shows `shown` (no names: nothing any more).
    mutating func set(_ subscriber: Subscriber, _ shown: Panels) {
        let index = panels.firstIndex { $0.subscriber == subscriber }
        switch (index, shown.names.isEmpty) {
        case (let index?, true): panels.remove(at: index)
        case (let index?, false): panels[index].shown = shown
        case (nil, false): panels.append((subscriber, shown))
        case (nil, true): break
        }
    }

    /// `subscriber` shows camera `id` (nil: none any more).
    mutating func set(_ subscriber: Subscriber, camera id: String?) { cameras[subscriber] = id }

    /// Forgets `subscriber` whole; the camera it showed, if any.
    mutating func remove(_ subscriber: Subscriber) -> String? {
        set(subscriber, .nothing)
        return cameras.removeValue(forKey: subscriber)
    }

    /// The panels every subscriber shows, each once, at the fastest rate any asked; whole if any asks.
    var union: Panels {
        guard !panels.isEmpty else { return .nothing }
        var names: [String] = []
        for entry in panels {
            for name in entry.shown.names where !names.contains(name) { names.append(name) }
        }
        return Panels(names: names, fps: panels.map(\.shown.fps).max() ?? 1, whole: panels.contains { $0.shown.whole })
    }

    /// Whether some subscriber still shows camera `id`.
    func showsCamera(_ id: String) -> Bool { cameras.values.contains(id) }

    func shows(_ subscriber: Subscriber, camera id: String) -> Bool { cameras[subscriber] == id }
}
