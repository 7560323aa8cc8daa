import Foundation
import IntercomTestSupport
import IntercomBase
@testable import IntercomSimulator
import Testing

/// The flat's second subscriber who is not its owner (`residentPhone`), and access.php's owner-only
/// rule for them (server/mobile/address/access.php): any member adds a guest; removing another
/// phone is the owner's (a resident gets 200 "Нет прав для удаления" and nothing is done); anyone
/// may remove themselves.
@Suite(.removesTestFolders) struct OperatorSimulatorResidentTests {
    static let resident = "79123456789"
    static let guest = "79001112233"

    static var options: SimulatedOperatorOptions {
        var options = SimulatedOperatorOptions(confirmMethod: .sms, cameras: false)
        options.residentPhone = resident
        return options
    }

    @Test func theResidentSeesTheFlatAsANonOwnerWithTheOwnerListed() async throws {
        try await withOperator(Self.options) { simulator, curl in
            let token = try await curl.login(simulator, device: "resident", phone: Self.resident, code: simulator.options.residentCode)
            let flat = try #require(try await curl.post("address/getSettingsList", token: token).data?.first)
            #expect(flat["flatOwner"] == .string("f") && flat["keys"] == nil, "\(flat)")
            #expect(flat["roommates"]?.first?["phone"] == .string("79123456781") && flat["roommates"]?.first?["type"] == .string("owner"),
                    "\(flat)")
            // The owner sees the resident.
            let owner = try await curl.login(simulator)
            let ownFlat = try #require(try await curl.post("address/getSettingsList", token: owner).data?.first)
            #expect(ownFlat["roommates"]?.first?["phone"] == .string(Self.resident), "\(ownFlat)")
        }
    }

    @Test func aResidentAddsAGuestButOnlyTheOwnerRemovesOne() async throws {
        try await withOperator(Self.options) { simulator, curl in
            let token = try await curl.login(simulator, device: "resident", phone: Self.resident, code: simulator.options.residentCode)
            let added = try await curl.post("address/access", #"{"flatId":"1","guestPhone":"\#(Self.guest)"}"#, token: token)
            #expect(added.status == 204, "\(added.text)")
            let past = OperatorClock(timeZone: simulator.options.phpTimeZone).dateTime(Date(timeIntervalSinceNow: -86400))
            let refused = try await curl.post("address/access",
                #"{"flatId":"1","guestPhone":"\#(Self.guest)","expire":"\#(past)"}"#, token: token)
            #expect(refused.status == 200 && refused.data == .string("Нет прав для удаления"), "\(refused.text)")
            #expect(simulator.roommates.contains(Self.guest))
            // The owner can.
            let owner = try await curl.login(simulator)
            let removed = try await curl.post("address/access",
                #"{"flatId":"1","guestPhone":"\#(Self.guest)","expire":"\#(past)"}"#, token: owner)
            #expect(removed.status == 204 && !simulator.roommates.contains(Self.guest), "\(removed.text)")
            // The resident may leave: then the flat is no longer theirs.
            let left = try await curl.post("address/access",
                #"{"flatId":"1","guestPhone":"\#(Self.resident)","expire":"\#(past)"}"#, token: token)
            #expect(left.status == 204 && !simulator.roommates.contains(Self.resident), "\(left.text)")
            #expect(try await curl.post("address/access", #"{"flatId":"1","guestPhone":"\#(Self.guest)"}"#, token: token).status == 404)
        }
    }
}

fileprivate extension JSONValue {
    var first: JSONValue? { if case .array(let items) = self { items.first } else { nil } }
}
