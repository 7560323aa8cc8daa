import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomOperator
import IntercomTestSupport
import Testing

/// The operator accounts as a part of their own, on a fake operator and the manual clock: the
/// door list's refresh and its on-demand limit, and the limit on automatic openings.
@Suite(.removesTestFolders) struct OperatorAccountsTests {
    enum Unused: Error { case phone, panel }

    static let op = OperatorConfig(name: "home", api: "https://operator.invalid/api", phone: "79123456781")
    static let address = OperatorAddress(houseId: "1", address: "Home 1", doors: [OperatorDoor(domophoneId: "1", doorId: 0, name: "Entrance")])

    /// Accounts on `api` and `clock`, logged in to `home`, their tasks in `tasks`.
    static func accounts(_ api: FakeOperator, _ clock: ManualClock, _ tasks: TaskOwner, _ folder: TestDirectory) throws -> OperatorAccounts {
        let tokens = OperatorTokenStore(directory: folder.path + "/operators")
        try tokens.save(OperatorCredentials(deviceId: "device", token: "token"), for: "home")
        let services = IntercomServices(startPhone: { _, _ in throw Unused.phone }, panel: { _ in throw Unused.panel },
                                        operatorClient: { config, _, _ in api.client(config) }, video: FakeVideo(), clock: clock)
        return OperatorAccounts(tokens: tokens, services: services, logger: .silent, tasks: tasks)
    }

    @Test func anAutomaticOpeningIsLimitedOnTheEnginesClock() async throws {
        let folder = try TestDirectory(prefix: "intercom-accounts")
        let (api, clock, tasks) = (FakeOperator(), ManualClock(), TaskOwner("test"))
        let accounts = try Self.accounts(api, clock, tasks, folder)
        let target = OperatorDoorTarget(op: Self.op, domophoneId: "1", doorId: 0, id: "home:1:0")
        try await accounts.open(target, automatic: true)
        await #expect(throws: IntercomError.self) { try await accounts.open(target, automatic: true) }
        try await accounts.open(target, automatic: false)
        clock.advance(by: .seconds(OperatorAccounts.automaticInterval))
        try await accounts.open(target, automatic: true)
        #expect(api.openings.all == ["home:1:0", "home:1:0", "home:1:0"])
        await tasks.end()
    }

    @Test func theDoorListIsKeptAndAskedForAgainAtMostOnceAMinute() async throws {
        let folder = try TestDirectory(prefix: "intercom-accounts")
        let (api, clock, tasks) = (FakeOperator(), ManualClock(), TaskOwner("test"))
        api.list("home", addresses: [Self.address])
        let accounts = try Self.accounts(api, clock, tasks, folder)
        await accounts.refresh([Self.op])
        #expect(accounts.doors.doors.map(\.id) == ["home:1:0"])
        api.fail("home", with: .unreachable(detail: "test"))
        await accounts.refresh([Self.op])
        #expect(accounts.doors.doors.map(\.id) == ["home:1:0"], "a failed refresh keeps the old list")
        api.fail("home", with: nil)
        accounts.refreshSoon([Self.op])
        #expect(api.addressRequests.all.count == 2, "asked within the minute: not again")
        clock.advance(by: .seconds(OperatorAccounts.onDemandInterval))
        accounts.refreshSoon([Self.op])
        await tasks.end()
        #expect(api.addressRequests.all.count == 3)
    }

    /// A revoked login fails every 5-minute round: warned once an hour, as the log sync warns,
    /// with the rounds counted; a round that works again starts afresh.
    @Test func aFailingRefreshIsWarnedOnceAnHour() async throws {
        let folder = try TestDirectory(prefix: "intercom-accounts")
        let (api, clock, tasks) = (FakeOperator(), ManualClock(), TaskOwner("test"))
        api.list("home", addresses: [Self.address])
        let accounts = try Self.accounts(api, clock, tasks, folder)
        api.fail("home", with: .loginExpired(status: 410))
        let first = await accounts.refresh([Self.op])
        #expect(first.count == 1 && first[0].hasPrefix("operator home: its doors were not refreshed"), "\(first)")
        #expect(await accounts.refresh([Self.op]).isEmpty, "the second round within the hour is not warned again")
        api.fail("home", with: .unreachable(detail: "test"))
        #expect(await accounts.refresh([Self.op]).count == 1, "another kind of failure is its own line")
        api.fail("home", with: nil)
        #expect(await accounts.refresh([Self.op]).isEmpty)
        api.fail("home", with: .loginExpired(status: 410))
        #expect(await accounts.refresh([Self.op]).count == 1, "after a good round the failure is new again")
        await tasks.end()
    }
}
