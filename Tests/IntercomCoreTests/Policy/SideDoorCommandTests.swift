import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomTestSupport
import Testing

/// What faces ask goes through the command table, share expiry and reload included: `share_expiry`
/// is `IntercomCommand.shareExpiry`, routed to the operator part's keeper; `reload` is in-process only.
@Suite struct SideDoorCommandTests {
    @Test func aShareExpiryCommandReachesTheKeeperAndIsRefusedWithoutOne() async throws {
        let folder = try TestDirectory(prefix: "intercom-share-cmd")
        let store = ShareExpiryStore(path: folder.path + "/state/share-expiries.json")
        try await EngineRig.run(operators: [ShareExpiryPolicyTests.home], operatorAPI: FakeOperator()) { rig throws in
            let expiry = ShareExpiryPolicyTests.end(rig, in: 600)
            await #expect(throws: IntercomError.refused("this daemon keeps no ends of shared access")) {
                try await rig.intercom.execute(.shareExpiry(.keep(expiry)))
            }
            let keeper = rig.intercom.shareExpiryKeeper(store: store)
            let kept = try await rig.intercom.execute(.shareExpiry(.keep(expiry)))
            #expect(kept["phone"]?.stringValue == ShareExpiryPolicyTests.guest)
            #expect(await keeper.kept == [expiry] && store.load().expiries == [expiry])
            var stranger = expiry
            stranger.operatorName = "dacha"
            await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.shareExpiry(.keep(stranger))) }
            #expect(await keeper.kept == [expiry])
            let forgot = try await rig.intercom.execute(.shareExpiry(.forget(operatorName: "home", flatId: "7", phone: expiry.phone)))
            #expect(forgot["forgotten"] == .bool(true) && store.load().expiries.isEmpty)
        }
    }

    @Test func shareExpiryIsACommandOnTheWireAndReloadIsNotOnIt() throws {
        let change = ShareExpiry.Change.forget(operatorName: "home", flatId: "7", phone: ShareExpiryPolicyTests.guest)
        let line = #"{"command":"share_expiry","operator":"home","flat":"7","phone":"\#(ShareExpiryPolicyTests.guest)","until":null}"#
        #expect(try ControlRequest.parse(line).get().action == .command(.shareExpiry(change)))
        let reload = ControlRequest(action: .command(.reload(IntercomConfig(daemon: DaemonSettings(socketPath: "/nonexistent/c.sock")))))
        guard case .failure(let refused) = ControlRequest.parse(reload.json.encoded) else {
            Issue.record("the socket took an in-process reload")
            return
        }
        #expect(refused.message.hasPrefix("unknown command 'reload'"))
    }
}
