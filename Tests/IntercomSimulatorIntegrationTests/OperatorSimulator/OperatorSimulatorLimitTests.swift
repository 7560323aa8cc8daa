import Foundation
import IntercomTestSupport
import IntercomBase
import IntercomSimulator
import IntercomPhoneTestSupport
import Testing

/// Limits that hold without any fault switched on.
@Suite(.removesTestFolders) struct OperatorSimulatorLimitTests {
    @Test func anOversizedBodyIs413AndOtherPathsAre404() async throws {
        try await withOperator { simulator, curl in
            let big = curl.directory.file("big.json")
            try Data(repeating: 0x20, count: 2 << 20).write(to: big)
            let answer = try await curl.post("user/requestCode", "@\(big.path)")
            #expect(answer.status == 413, "\(answer.status) \(answer.text)")
            #expect(answer.json?["code"] == .integer(413))
            let root = String(simulator.baseURL.dropLast("/mobile".count))
            #expect(try await curl.get("\(root)/api/user/ping").status == 404)
        }
    }
}
