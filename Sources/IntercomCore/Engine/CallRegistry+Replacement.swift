import Foundation
import IntercomBase
import IntercomPhone

/// A panel makes one call at a time: which of our calls a new call from it replaces, and which
/// ringing calls wait for an earlier conversation of their panel to end (`Intercom.incoming`).
extension CallRegistry {
    /// The incoming calls `info` replaces, oldest first: the same panel and the same SIP user (a
    /// `match` may cover several devices behind one address).
    func earlier(than info: CallInfo, panel: String) -> [CallSession] {
        let user = Self.sipUser(info.from)
        return values.filter {
            $0.info.direction == .incoming && $0.info.id != info.id && $0.panel?.name == panel && Self.sipUser($0.info.from) == user
        }.sorted { $0.since < $1.since }
    }

    /// Ringing calls held back from guest mode and auto-answer while `ended` was answered.
    func heldBack(after ended: CallID) -> [CallSession] {
        values.filter { $0.stage == .ringing && $0.replacesOnceConfirmed.contains(ended) }
    }

    /// Those of `ids` that are still live calls.
    func live(_ ids: [CallID]) -> [CallID] { ids.filter { self[$0] != nil } }

    /// `sip:100001@10.0.0.5:5060;x` → `100001` (nil without a user part).
    static func sipUser(_ uri: String) -> String? {
        SIPURI(parsing: uri)?.user?.lowercased()
    }
}
