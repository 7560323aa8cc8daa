import Testing
import IntercomBase

/// The control socket's request names come from one table: each is known to the parser, and the
/// reference documents each, in the table's order.
@Suite struct ControlCommandNameTests {
    @Test func everyNameOfTheTableIsKnownToTheParser() {
        for name in ControlCommandName.allCases {
            if case .failure(let failure) = ControlRequest.parse(#"{"command":"\#(name.rawValue)"}"#) {
                #expect(!failure.message.hasPrefix("unknown command"), "\(name.rawValue): \(failure.message)")
            }
        }
        guard case .failure(let unknown) = ControlRequest.parse(#"{"command":"reboot"}"#) else {
            Issue.record("an unknown command was accepted")
            return
        }
        #expect(unknown.message == "unknown command 'reboot'; known: " + ControlRequest.commands.joined(separator: ", "))
    }

    @Test func theReferenceFollowsTheTable() {
        #expect(ControlCommandReference.all.map(\.name) == ControlCommandName.allCases.map(\.rawValue))
        #expect(ControlRequest.commands.first == "status" && ControlRequest.commands.last == "settings")
    }
}
