import Testing
import IntercomBase
@testable import IntercomCLI

/// `intercom ctl transfer`'s forms (issue 25): blind, `--consult TARGET` (either order),
/// `--complete`, `--cancel`; one step at a time.
@Suite struct CtlTransferArgumentsTests {
    static func request(_ words: [String]) throws -> Result<ControlRequest, UsageError> {
        let spec = CtlCommand.spec
        let args = try ParsedArguments.parse(words, options: spec.options, maxPositionals: spec.maxPositionals, command: "ctl")
        return CtlCommand.makeRequest(args)
    }

    @Test func eachFormAsksForItsStep() throws {
        let cases: [([String], IntercomCommand)] = [
            (["transfer", "flat12"], .transfer(nil, target: "flat12")),
            (["transfer", "--consult", "flat12"], .attendedTransfer(nil, step: .consult(target: "flat12"))),
            (["transfer", "flat12", "--consult", "--call", "c3"], .attendedTransfer(CallID("c3"), step: .consult(target: "flat12"))),
            (["transfer", "--complete"], .attendedTransfer(nil, step: .complete)),
            (["transfer", "--cancel", "--call", "c3"], .attendedTransfer(CallID("c3"), step: .cancel)),
        ]
        for (words, command) in cases {
            let request = try Self.request(words).get()
            #expect(request.action == .command(command), "\(words)")
            // The socket reads back what ctl wrote.
            #expect(try ControlRequest.parse(request.json.encoded).get().action == .command(command), "\(request.json.encoded)")
        }
    }

    @Test func aWrongFormSaysWhatToWrite() throws {
        for words in [["transfer", "--complete", "--cancel"], ["transfer", "--consult"], ["transfer", "--complete", "flat12"]] {
            guard case .failure(let error) = try Self.request(words) else { Issue.record("accepted \(words)"); continue }
            #expect(error.description.contains("transfer") || error.description.contains("flat12"), "\(error.description)")
        }
        guard case .failure(let failure) = ControlRequest.parse(#"{"command":"transfer","complete":true,"cancel":true}"#) else {
            Issue.record("the socket took two steps at once")
            return
        }
        #expect(failure.message.contains("one of"), "\(failure.message)")
    }
}
