import Foundation
import IntercomBase

/// What Enter does on a journal entry: play the operator camera's recording of that moment
/// (`intercom watch TARGET --at TIME`), or the one line that says why there is none to play.
enum JournalRecording: Equatable {
    /// `target`: the entry's camera (`OPERATOR:cam:ID`) or a door of its panel (`OPERATOR:DOMOPHONE:0`,
    /// whose entrance camera the operator's camera map names); `from`: a little before the entry.
    case watch(target: String, from: Date)
    case unavailable(String)

    /// How much of the moment before the entry the recording starts with: a visitor walks up to
    /// the panel before the call or the opening is logged.
    static let leadIn: TimeInterval = 5

    static func of(_ entry: JournalEntry) -> JournalRecording {
        switch entry.kind {
        case .operatorEvent:
            guard let name = entry.operatorName else { return .unavailable("this operator entry names no operator") }
            let from = entry.time.addingTimeInterval(-leadIn)
            if let camera = entry.eventDetail?["camera"]?.stringValue, !camera.isEmpty {
                return .watch(target: "\(name):cam:\(camera)", from: from)
            }
            // A panel's entry: the journal keeps the panel (domophone), not the door's number, and
            // the camera map names a camera per panel, so any of its doors names that camera.
            if let domophone = entry.eventDetail?["domophone"]?.stringValue, !domophone.isEmpty {
                return .watch(target: "\(name):\(domophone):0", from: from)
            }
            return .unavailable("the operator named no camera or panel for this entry (copied before this version?): no recording to play")
        case .call:
            return .unavailable(entry.playableClip == nil
                ? "a panel keeps no recording; only operator cameras have an archive"
                : "this call's clip plays with 'intercom log --play \(entry.id)'")
        case .door, .panelEvent, .transfer:
            return .unavailable("a panel keeps no recording; Enter plays operator entries from their camera's archive")
        }
    }

    /// `intercom watch`'s arguments after the command's own: the target and `--at` in RFC 3339.
    var watchArguments: [String]? {
        guard case .watch(let target, let from) = self else { return nil }
        return [target, "--at", RFC3339.string(from)]
    }
}
