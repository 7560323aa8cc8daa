import Foundation
import IntercomBase

/// The calls of each panel as the bridge saw them in events: what `ringing`, the call state and
/// the answer/decline/hang-up buttons need.
struct PanelCallTracker {
    private var calls: [CallID: (panel: String, answered: Bool, since: Date)] = [:]
    private var pictured: Set<CallID> = []
    private(set) var lastCall: [String: Date] = [:]

    mutating func incoming(_ id: CallID, panel: String, at time: Date) {
        calls[id] = (panel, false, time)
        lastCall[panel] = time
    }

    mutating func answered(_ id: CallID) { calls[id]?.answered = true }

    mutating func ended(_ id: CallID) {
        calls.removeValue(forKey: id)
        pictured.remove(id)
    }

    /// True the first time it is asked for a call: one picture per ring.
    mutating func firstPicture(_ id: CallID) -> Bool { calls[id] != nil && pictured.insert(id).inserted }

    func isRinging(_ panel: String) -> Bool { calls.values.contains { $0.panel == panel && !$0.answered } }

    func state(_ panel: String) -> String {
        let mine = calls.values.filter { $0.panel == panel }
        if mine.contains(where: \.answered) { return "in_call" }
        return mine.isEmpty ? "idle" : "ringing"
    }

    /// The command a panel's button means: its oldest ringing call (answer, decline) or its
    /// answered call, else its ringing one (hang up); nil when the panel has no such call.
    func command(_ action: String, panel: String) -> IntercomCommand? {
        let mine = calls.filter { $0.value.panel == panel }.sorted { $0.value.since < $1.value.since }
        let ringing = mine.first { !$0.value.answered }?.key
        switch action {
        case "answer": return ringing.map { .answer($0) }
        case "decline": return ringing.map { .decline($0) }
        default: return (mine.first { $0.value.answered }?.key ?? ringing).map { .hangup($0) }
        }
    }
}
