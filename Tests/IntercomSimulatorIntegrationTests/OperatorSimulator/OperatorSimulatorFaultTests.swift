import Foundation
import IntercomTestSupport
import IntercomBase
import IntercomSimulator
import IntercomPhoneTestSupport
import Testing

/// The fault answers a client must survive: 50 MB, not JSON, too slow; limited to chosen methods.
@Suite(.removesTestFolders) struct OperatorSimulatorFaultTests {
    @Test func hugeAnswerIs50MBOfChunkedJSONLookingFiller() async throws {
        var options = SimulatedOperatorOptions()
        options.faults = SimulatedOperatorFaults(mode: .huge, methods: ["address/getAddressList"])
        try await withOperator(options) { simulator, curl in
            // Login is untouched: the fault hits only the named method.
            let token = try await curl.login(simulator)
            let answer = try await curl.post("address/getAddressList", token: token, maxTime: 60)
            #expect(answer.status == 200)
            #expect(answer.body.count == 50 << 20)
            #expect(answer.body.starts(with: Data(#"{"code":200,"name":"OK","message":"OK","data":""#.utf8)))
            #expect(answer.json == nil)
        }
    }

    @Test func garbageIsA200ThatIsNotJSON() async throws {
        var options = SimulatedOperatorOptions()
        options.faults = SimulatedOperatorFaults(mode: .garbage)
        try await withOperator(options) { _, curl in
            let answer = try await curl.post("user/requestCode", #"{"userPhone":"79123456781"}"#)
            #expect(answer.status == 200)
            #expect(answer.contentType.hasPrefix("text/html"))
            #expect(!answer.body.isEmpty)
            #expect(answer.json == nil)
        }
    }

    @Test func slowAnswersArriveLateAndFaultsCanBeHealed() async throws {
        var options = SimulatedOperatorOptions()
        options.faults = SimulatedOperatorFaults(mode: .slow, slowMs: 3000)
        try await withOperator(options) { simulator, curl in
            let late = try await curl.post("user/requestCode", #"{"userPhone":"79123456781"}"#, maxTime: 0.5)
            #expect(late.curlStatus == 28, "curl status \(late.curlStatus)")
            simulator.faults = SimulatedOperatorFaults()
            let clock = ContinuousClock()
            let start = clock.now
            #expect(try await curl.post("user/requestCode", #"{"userPhone":"79123456781"}"#).status == 200)
            #expect(clock.now - start < .seconds(2))
        }
    }
}
