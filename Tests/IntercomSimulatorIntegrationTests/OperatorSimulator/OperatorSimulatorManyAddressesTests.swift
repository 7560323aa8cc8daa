import Foundation
import IntercomTestSupport
import IntercomBase
@testable import IntercomSimulator
import IntercomPhoneTestSupport
import Testing

/// A subscriber with flats at several addresses (`SimulatedOperatorOptions.addresses`): every list
/// carries each house, ids never collide, and doors, settings and the log stay per flat.
@Suite(.removesTestFolders) struct OperatorSimulatorManyAddressesTests {
    @Test func threeAddressesListEveryHouseWithItsOwnDoorsFlatAndCamera() async throws {
        try await withOperator(SimulatedOperatorOptions(addresses: 3)) { simulator, curl in
            let token = try await curl.login(simulator)
            let houses = try await curl.post("address/getAddressList", token: token).data?.items ?? []
            #expect(houses.map { $0["houseId"] } == ["1", "2", "3"].map { .string($0) })
            #expect(Set(houses.compactMap { $0["address"]?.stringValue }).count == 3)
            for house in houses {
                let doors = house["doors"]?.items ?? []
                #expect(doors.count == 2)
                // Each house's entrance panel is its own domophone.
                #expect(doors.allSatisfy { $0["domophoneId"] == house["houseId"] })
                #expect(doors.first?["doorId"] == .integer(0))
                #expect(doors.first?["icon"] == .string("entrance"))
            }

            let flats = try await curl.post("address/getSettingsList", token: token).data?.items ?? []
            #expect(flats.map { $0["flatId"] } == ["1", "2", "3"].map { .string($0) })
            #expect(flats.map { $0["houseId"] } == ["1", "2", "3"].map { .string($0) })

            #expect(try await curl.post("cctv/all", token: token).data?.items?.count == 3)
            let second = try await curl.post("cctv/all", #"{"houseId":"2"}"#, token: token).data?.items ?? []
            #expect(second.map { $0["id"] } == [.integer(2)])
            #expect(try await curl.post("cctv/all", #"{"houseId":"4"}"#, token: token).data == nil)

            // A door of the third house opens and is logged in that flat only.
            #expect(try await curl.post("address/openDoor", #"{"domophoneId":"3","doorId":1}"#, token: token).status == 204)
            #expect(try await curl.post("address/openDoor", #"{"domophoneId":"4","doorId":0}"#, token: token).status == 404)
            // The server writes its days in PHP's zone (UTC here), not the one ext/options names.
            let today = OperatorClock(timeZone: simulator.options.phpTimeZone).day(Date())
            let log = try await curl.post("address/plog", #"{"flatId":"3","day":"\#(today)"}"#, token: token).data?.items ?? []
            #expect(log.count == 1)
            #expect(log.first?["houseId"] == .integer(3))
            #expect(log.first?["entranceId"] == .integer(3))
            #expect(log.first?["objectId"] == .string("3"))
            #expect(try await curl.post("address/plogDays", #"{"flatId":"1"}"#, token: token).data == nil)
            #expect(try await curl.post("address/intercom", #"{"flatId":"3"}"#, token: token).status == 200)
            #expect(try await curl.post("address/intercom", #"{"flatId":"4"}"#, token: token).status == 404)
        }
    }

    @Test func noAddressesStillMeansOne() {
        #expect(SimulatedOperatorOptions(addresses: 0).addresses == 1)
    }
}

fileprivate extension JSONValue {
    var items: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
}
