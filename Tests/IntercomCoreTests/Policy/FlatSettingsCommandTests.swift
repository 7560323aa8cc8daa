import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomOperator
import IntercomTestSupport
import Testing

/// `settings` from every face is one command (`IntercomCommand.flatSettings`): checked as
/// `intercom settings` checks it, applied through the operator's API, answered with the settings
/// read back; the owner's log privacy refused for a non-owner before anything is sent (the server
/// would answer 200 and ignore it: server/mobile/address/intercom.php).
@Suite struct FlatSettingsCommandTests {
    static let home = OperatorConfig(name: "home", api: "https://operator.invalid/mobile", phone: "79123456781")

    static func api(owner: Bool) -> FakeOperator {
        let api = FakeOperator()
        api.flats("home", [OperatorFlat(flatId: "7", flatNumber: "12", address: "Main st 1, 12", isOwner: owner)])
        return api
    }

    @Test func aChangeReachesTheOperatorAndTheReplyIsTheSettingsReadBack() async throws {
        let api = Self.api(owner: true)
        try await EngineRig.run(operators: [Self.home], operatorAPI: api) { rig throws in
            let reply = try await rig.intercom.execute(.flatSettings(FlatSettingsRequest(
                operatorName: "home", changes: ["white_rabbit=5", "cms=off", "hidden_plog=on"])))
            #expect(reply["white_rabbit"] == .integer(5) && reply["cms"] == .bool(false) && reply["hidden_plog"] == .bool(true), "\(reply)")
            #expect(reply["flat"] == .string("7") && reply["owner"] == .bool(true))
            #expect(api.settings("home", flat: "7").whiteRabbit == 5)
            let read = try await rig.intercom.execute(.flatSettings(FlatSettingsRequest(operatorName: "home", flat: "12")))
            #expect(read["white_rabbit"] == .integer(5), "\(read)")
        }
    }

    @Test func badChangesAndOwnerOnlyKeysAreRefusedBeforeTheOperatorIsAsked() async throws {
        let api = Self.api(owner: false)
        try await EngineRig.run(operators: [Self.home], operatorAPI: api) { rig throws in
            await #expect(throws: IntercomError.invalidRequest("white_rabbit takes minutes 0, 1, 2, 3, 5, 7 or 10 (or off), not '4'")) {
                try await rig.intercom.execute(.flatSettings(FlatSettingsRequest(operatorName: "home", changes: ["white_rabbit=4"])))
            }
            do {
                _ = try await rig.intercom.execute(.flatSettings(FlatSettingsRequest(operatorName: "home", changes: ["white_rabbit=3", "disable_plog=on"])))
                Issue.record("a non-owner's disable_plog was accepted")
            } catch let error as IntercomError {
                #expect(error.exitCode == 77 && error.description.hasPrefix("disable_plog is the flat's owner's to change"), "\(error)")
            }
            // Nothing was sent: not even the allowed change beside it.
            #expect(api.settings("home", flat: "7").whiteRabbit == 0)
            await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.flatSettings(FlatSettingsRequest(operatorName: "dacha")))
            }
            await #expect(throws: IntercomError.invalidRequest("home has no flat '99'; flats: 7 (Main st 1, 12)")) {
                try await rig.intercom.execute(.flatSettings(FlatSettingsRequest(operatorName: "home", flat: "99")))
            }
            // The operator's own refusal keeps its exit code on the socket: 77, log in again.
            api.fail("home", with: .loginExpired(status: 410))
            do {
                _ = try await rig.intercom.execute(.flatSettings(FlatSettingsRequest(operatorName: "home")))
                Issue.record("a revoked login's settings were answered")
            } catch let error as IntercomError {
                #expect(error.exitCode == 77 && error.description.contains("intercom login home"), "\(error)")
            }
        }
    }

    @Test func settingsIsARequestOnTheWire() throws {
        let request = FlatSettingsRequest(operatorName: "yard", flat: nil, changes: ["white_rabbit=5"])
        let line = ControlRequest(id: .integer(1), action: .command(.flatSettings(request))).json.encoded
        #expect(line == #"{"command":"settings","id":1,"operator":"yard","flat":null,"set":["white_rabbit=5"]}"#)
        #expect(try ControlRequest.parse(line).get().action == .command(.flatSettings(request)))
        guard case .failure(let bad) = ControlRequest.parse(#"{"command":"settings","operator":"yard","set":["cms"]}"#) else {
            Issue.record("a change without = was taken")
            return
        }
        #expect(bad.message.hasPrefix("\"set\" must be a list of at most 16 \"KEY=VALUE\" texts"))
    }
}
