import Foundation
import IntercomTestSupport
import IntercomBase
import IntercomSimulator
import IntercomPhoneTestSupport
import Testing

/// The flash-call confirmation: a number to phone, then `user/checkPhone`.
@Suite(.removesTestFolders) struct OperatorSimulatorOutgoingCallTests {
    @Test func outgoingCallNamesANumberAndCheckPhoneLetsOnlyTheTestPhoneIn() async throws {
        try await withOperator { simulator, curl in
            // The server's own default (requestCode.php): a call, when the app names no method.
            let byDefault = try await curl.post("user/requestCode", #"{"userPhone":"79990001122"}"#)
            #expect(byDefault.data?["method"] == .string("outgoingCall"), "\(byDefault.text)")
            let asked = try await curl.post("user/requestCode", #"{"userPhone":"79123456781","method":"outgoingCall"}"#)
            #expect(asked.status == 200)
            #expect(asked.data?["method"] == .string("outgoingCall"))
            #expect(asked.text.contains(#""confirmationNumbers":["#), "\(asked.text)")
            let checked = try await curl.post("user/checkPhone", #"{"userPhone":"79123456781","deviceToken":"d","platform":2}"#)
            let token = try #require(checked.data?["accessToken"]?.stringValue, "\(checked.text)")
            #expect(try await curl.post("user/ping", token: token).status == 204)
            #expect(try await curl.post("user/checkPhone", #"{"userPhone":"79990001122","deviceToken":"d"}"#).status == 401)
        }
        var options = SimulatedOperatorOptions()
        options.confirmMethod = .outgoingCall
        try await withOperator(options) { _, curl in
            let asked = try await curl.post("user/requestCode", #"{"userPhone":"79990001122"}"#)
            #expect(asked.data?["method"] == .string("outgoingCall"))
            // The app can still ask for an SMS.
            let sms = try await curl.post("user/requestCode", #"{"userPhone":"79123456781","method":"sms"}"#)
            #expect(sms.data?["method"] == .string("sms"))
        }
    }
}
