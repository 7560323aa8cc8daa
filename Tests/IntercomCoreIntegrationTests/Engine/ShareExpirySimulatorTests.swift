import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomOperator
import IntercomPhoneTestSupport
import IntercomSimulator
import IntercomTestSupport
import Synchronization
import Testing

/// The daemon's kept end of shared access against the simulated operator over real HTTP (which,
/// as SmartYard's PHP, ignores `expire` when adding): when due, the guest is taken off the flat.
@Suite struct ShareExpirySimulatorTests {
    @Test func aDueEndRemovesTheGuestFromTheOperatorsList() async throws {
        try await withSimulatedLogin { simulator, client in
            let flat = try #require(try await client.flats().first)
            let guest = "79990001122"
            try await client.addAccess(flatId: flat.flatId, guestPhone: guest)
            #expect(try await client.hasGuest(flatId: flat.flatId, phone: guest))

            let clock = ManualClock()
            let published = Mutex<[IntercomEvent]>([])
            let store = ShareExpiryStore(path: PhoneTestSupport.tempDirectory("share-expiry") + "/share-expiries.json")
            let keeper = ShareExpiryKeeper(store: store, clock: clock, logger: .silent, client: { _ in client },
                                           publish: { event in published.withLock { $0.append(event) } })
            let expiry = ShareExpiry(operatorName: "home", flatId: flat.flatId, phone: guest,
                                     until: clock.date.addingTimeInterval(60), address: flat.address)
            try await keeper.apply(.keep(expiry))
            #expect(await keeper.expireDue() == 0)
            #expect(try await client.hasGuest(flatId: flat.flatId, phone: guest))
            clock.advance(by: .seconds(60))
            #expect(await keeper.expireDue() == 1)
            #expect(try await !client.hasGuest(flatId: flat.flatId, phone: guest))
            #expect(published.withLock { $0.map(\.kind) } == [.shareExpired(expiry)])
            #expect(store.load().expiries.isEmpty)
        }
    }
}

/// A simulated operator in this process and a client logged in to it as the test phone (SMS code
/// 1001), for tests of one operator API over real HTTP; the simulator stops after `body`.
func withSimulatedLogin(_ body: (SimulatedOperator, OperatorClient) async throws -> Void) async throws {
    let simulator = try SimulatedOperator.start(SimulatedOperatorOptions())
    try await withCleanup({ simulator.stop() }) {
        let op = OperatorConfig(name: "home", api: simulator.baseURL, phone: "79123456781")
        let login = try OperatorClient(config: op, token: nil)
        _ = try await login.requestCode(phone: "79123456781", deviceId: "test-device", method: .sms)
        let grant = try await login.confirmCode(phone: "79123456781", code: "1001", deviceId: "test-device")
        try await body(simulator, try OperatorClient(config: op, token: grant.token))
    }
}
