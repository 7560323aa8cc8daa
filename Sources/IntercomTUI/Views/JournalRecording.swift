import Foundation
import IntercomBase

/// What Enter does on a journal entry: play the operator camera's recording of that moment
/// (`intercom watch TARGET --at TIME`), play a recorded call's clip (`intercom log --play ID`), or the
/// one line that says why there is nothing to play.
enum JournalRecording: Equatable {
    /// `target`: the entry's camera (`OPERATOR:cam:ID`) or a door of its panel (`OPERATOR:DOMOPHONE:0`,
    /// whose entrance camera the operator's camera map names); `from`: a little before the entry.
    case watch(target: String, from: Date)
    /// The entry's own clip (a recorded call, or its ring: `[panel] record`), by the entry's id.
    case clip(entry: Int64)
    case unavailable(String)

    /// How much of the moment before the entry the recording starts with: a visitor walks up to
    /// the panel before the call or the opening is logged.
    static let leadIn: TimeInterval = 5

    static func of(_ entry: JournalEntry) -> JournalRecording {
        switch entry.kind {
        case .operatorEvent:
            guard let name = entry.operatorName else { return .unavailable("this operator entry names no operator") }
            let from = entry.time.addingTimeInterval(-leadIn)
            // The camera that saw the entry (plog's `cameraId`: its entrance's, which cctv/all lists),
            // else its entrance's in the camera map.
            if let camera = entry.cameraId ?? entry.eventDetail?["camera"]?.stringValue, !camera.isEmpty {
                return .watch(target: "\(name):cam:\(camera)", from: from)
            }
            if let entrance = entry.entranceId, !entrance.isEmpty {
                return .watch(target: "\(name):entrance:\(entrance)", from: from)
            }
            // A panel's entry: the journal keeps the panel (domophone), not the door's number, and
            // the camera map names a camera per panel, so any of its doors names that camera.
            if let domophone = entry.eventDetail?["domophone"]?.stringValue, !domophone.isEmpty {
                return .watch(target: "\(name):\(domophone):0", from: from)
            }
            return .unavailable("the operator named no camera or panel for this entry (copied before this version?): no recording to play")
        case .call:
            guard entry.playableClip != nil else {
                return .unavailable("no clip of this call was kept ([panel] record = calls or rings keeps them)")
            }
            return .clip(entry: entry.id)
        case .door, .panelEvent, .transfer:
            return .unavailable("a panel keeps no recording; Enter plays operator entries from their camera's archive")
        }
    }

    /// The `intercom` command that plays it, its name first: `watch TARGET --at` (RFC 3339) or
    /// `log --play ID`; nil when there is nothing to play.
    var command: (name: String, arguments: [String])? {
        switch self {
        case .watch(let target, let from): ("watch", [target, "--at", RFC3339.string(from)])
        case .clip(let entry): ("log", ["--play", String(entry)])
        case .unavailable: nil
        }
    }

    /// What the screen calls it when it comes back ("back from the recording of 12:03:04 (home:cam:5)").
    var title: String? {
        switch self {
        case .watch(let target, _): target
        case .clip(let entry): "clip \(entry)"
        case .unavailable: nil
        }
    }
}
