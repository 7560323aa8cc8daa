import Foundation
import IntercomBase
import IntercomOperator

/// What `intercom share` can settle from the flat's list alone, before asking the server. SmartYard's
/// `address/access` (server/mobile/address/access.php) lets any member of a flat add a guest, but
/// only the owner (role 0) take one back: anyone else removing another phone gets 200 with
/// "Нет прав для удаления" and nothing is done. Adding a phone already linked fails 422 only after
/// the server has pushed the guest a "new address" message, so a phone the list already holds is
/// not sent at all.
extension ShareCommand {
    enum OwnerCheck: Equatable {
        /// Ask the server; `note` is said after it agreed (a resident's plain share: only the owner can undo it).
        case ask(note: String?)
        /// Already listed: nothing to send (`line` says so).
        case listed(String)
        /// Only the owner could do this: the one line to fail with.
        case ownerOnly(String)
    }

    /// `ownPhone`: the login's phone (a resident may take their own access back).
    static func ownerCheck(flat: OperatorFlat, phone: String, until: Bool, remove: Bool, ownPhone: String?) -> OwnerCheck {
        let flatLabel = "flat \(flat.flatId)"
        if remove {
            let own = ownPhone.map { OperatorConfig.normalizedPhone($0) == phone } ?? false
            guard flat.isOwner || own else {
                return .ownerOnly("only the flat's owner can take a guest back: this login is not the owner of \(flatLabel) "
                                  + "(the server would answer \"no right to delete\"); ask the owner to run 'intercom share \(phone) --remove'")
            }
            return .ask(note: nil)
        }
        if until && !flat.isOwner {
            return .ownerOnly("only the flat's owner can take a guest back, so --until cannot end +\(phone)'s access: this login is "
                              + "not the owner of \(flatLabel); share without --until (the owner can remove it later), or ask the owner")
        }
        if flat.roommates.contains(where: { $0.isPhone(phone) }) {
            return .listed("+\(phone) is already listed for \(flatLabel); nothing sent")
        }
        return .ask(note: flat.isOwner ? nil
                    : "note: only the flat's owner can take +\(phone)'s access back (this login is a resident of \(flatLabel))")
    }
}
