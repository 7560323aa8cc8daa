import Foundation
import IntercomBase
@testable import IntercomCLI
import IntercomOperator
import Testing

/// What `intercom share` settles from the flat's list before asking the server, as
/// server/mobile/address/access.php rules: any member adds, only the owner removes another phone,
/// and a phone already listed is not sent again.
@Suite struct ShareOwnerCheckTests {
    static let guest = "79001112233"

    static func flat(owner: Bool, listed: [String] = []) -> OperatorFlat {
        OperatorFlat(flatId: "1", address: "Lenina 1", isOwner: owner, roommates: listed.map { OperatorRoommate(phone: $0, type: "inner") })
    }

    static func check(owner: Bool, listed: [String] = [], until: Bool = false, remove: Bool = false,
                      phone: String = guest) -> ShareCommand.OwnerCheck {
        ShareCommand.ownerCheck(flat: flat(owner: owner, listed: listed), phone: phone, until: until, remove: remove,
                                ownPhone: "79123456789")
    }

    @Test func aResidentsUntilIsRefusedUpFront() {
        guard case .ownerOnly(let line) = Self.check(owner: false, until: true) else {
            Issue.record("a resident cannot end a guest's access")
            return
        }
        #expect(line.hasPrefix("only the flat's owner can take a guest back") && !line.contains("\n"), "\(line)")
        #expect(Self.check(owner: true, until: true) == .ask(note: nil))
    }

    @Test func aResidentsPlainShareWarnsOnlyTheOwnerCanUndoIt() {
        guard case .ask(let note?) = Self.check(owner: false) else {
            Issue.record("a resident may add, with a word about removing")
            return
        }
        #expect(note.contains("only the flat's owner can take +\(Self.guest)'s access back"), "\(note)")
        #expect(Self.check(owner: true) == .ask(note: nil))
    }

    @Test func aResidentRemovesOnlyThemselves() {
        guard case .ownerOnly = Self.check(owner: false, remove: true) else {
            Issue.record("a resident cannot remove another phone")
            return
        }
        #expect(Self.check(owner: false, remove: true, phone: "79123456789") == .ask(note: nil))
        #expect(Self.check(owner: true, remove: true) == .ask(note: nil))
    }

    @Test func aListedPhoneIsSaidToBeListed() {
        // The server may keep the number with a leading 8.
        guard case .listed(let line) = Self.check(owner: true, listed: ["89001112233"]) else {
            Issue.record("a listed phone is not sent again")
            return
        }
        #expect(line.contains("+\(Self.guest) is already listed for flat 1"), "\(line)")
        // The owner's --until on a listed phone: the end is still kept, nothing is added.
        #expect(Self.check(owner: true, listed: [Self.guest], until: true) == .listed("+\(Self.guest) is already listed for flat 1; nothing sent"))
    }
}
