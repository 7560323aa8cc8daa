import Foundation
import IntercomTestSupport
import IntercomBase
import IntercomSimulator
import IntercomPhoneTestSupport
import Testing

/// Login as the real SmartYard server does it: test phone and PIN, wrong PINs, the attempt limit,
/// 429 for other numbers, token rotation, and the authorisation errors with their fixed texts.
@Suite(.removesTestFolders) struct OperatorSimulatorLoginTests {
    /// A server configured to confirm by SMS (its own default is a call).
    static let sms = SimulatedOperatorOptions(confirmMethod: .sms)

    @Test func testPhoneLogsInWithItsCodeAndPingIs204WithAnEmptyBody() async throws {
        try await withOperator(Self.sms) { simulator, curl in
            // A leading 8 is read as 7.
            let requested = try await curl.post("user/requestCode", #"{"userPhone":"89123456781"}"#)
            #expect(requested.status == 200)
            #expect(requested.text == #"{"code":200,"name":"OK","message":"OK","data":{"method":"sms"}}"#)
            // The test number is never refused, even while its PIN is pending.
            #expect(try await curl.post("user/requestCode", #"{"userPhone":"79123456781"}"#).status == 200)

            let wrong = try await curl.post("user/confirmCode", #"{"userPhone":"79123456781","smsCode":"1002","deviceToken":"d1"}"#)
            #expect(wrong.status == 403)
            #expect(wrong.json?["code"] == .integer(403))
            #expect(wrong.json?["name"]?.stringValue == "The PIN code was entered incorrectly")
            #expect(wrong.message == "The PIN code was entered incorrectly")

            let confirmed = try await curl.post("user/confirmCode", #"{"userPhone":"79123456781","smsCode":"1001","deviceToken":"d1","platform":2}"#)
            #expect(confirmed.status == 200)
            #expect(confirmed.contentType.hasPrefix("application/json"))
            let token = try #require(confirmed.data?["accessToken"]?.stringValue)
            #expect(UUID(uuidString: token) != nil, "token \(token) is not a UUID")
            #expect(confirmed.data?["names"]?["name"]?.stringValue?.isEmpty == false)

            let ping = try await curl.post("user/ping", token: token)
            #expect(ping.status == 204)
            #expect(ping.body.isEmpty)
            // The PIN is used up.
            let again = try await curl.post("user/confirmCode", #"{"userPhone":"79123456781","smsCode":"1001","deviceToken":"d1"}"#)
            #expect(again.status == 404)
            #expect(simulator.requestCount("user/confirmCode") == 3)
        }
    }

    @Test func badPhonesAndCodesAre422() async throws {
        try await withOperator(Self.sms) { _, curl in
            #expect(try await curl.post("user/requestCode", #"{"userPhone":"7912345678a"}"#).status == 422)
            #expect(try await curl.post("user/requestCode", #"{"userPhone":"7912345678"}"#).status == 422)
            #expect(try await curl.post("user/requestCode", "not json").status == 422)
            _ = try await curl.post("user/requestCode", #"{"userPhone":"79123456781"}"#)
            #expect(try await curl.post("user/confirmCode", #"{"userPhone":"79123456781","smsCode":"101"}"#).status == 422)
            #expect(try await curl.post("user/confirmCode", #"{"userPhone":"79123456781","smsCode":"10011"}"#).status == 422)
            // No PIN pending for this number.
            #expect(try await curl.post("user/confirmCode", #"{"userPhone":"79000000000","smsCode":"1001"}"#).status == 404)
        }
    }

    @Test func moreThanFiveAttemptsDropThePIN() async throws {
        try await withOperator(Self.sms) { _, curl in
            _ = try await curl.post("user/requestCode", #"{"userPhone":"79123456781"}"#)
            for attempt in 1...5 {
                let wrong = try await curl.post("user/confirmCode", #"{"userPhone":"79123456781","smsCode":"0000"}"#)
                #expect(wrong.status == 403, "attempt \(attempt)")
                #expect(wrong.message == "The PIN code was entered incorrectly", "attempt \(attempt)")
            }
            let sixth = try await curl.post("user/confirmCode", #"{"userPhone":"79123456781","smsCode":"0000"}"#)
            #expect(sixth.status == 403)
            #expect(sixth.message == "Maximum number of login attempts exceeded")
            // Dropped: even the right code finds nothing now; a new request starts over.
            #expect(try await curl.post("user/confirmCode", #"{"userPhone":"79123456781","smsCode":"1001"}"#).status == 404)
            _ = try await curl.post("user/requestCode", #"{"userPhone":"79123456781"}"#)
            #expect(try await curl.post("user/confirmCode", #"{"userPhone":"79123456781","smsCode":"1001"}"#).status == 200)
        }
    }

    @Test func otherNumbersGetSMSAnd429WhileThePINIsPending() async throws {
        try await withOperator(Self.sms) { _, curl in
            let first = try await curl.post("user/requestCode", #"{"userPhone":"79990001122"}"#)
            #expect(first.status == 200)
            #expect(first.data?["method"]?.stringValue == "sms")
            let second = try await curl.post("user/requestCode", #"{"userPhone":"89990001122"}"#)
            #expect(second.status == 429)
            #expect(second.json?["code"] == .integer(429))
            // Nobody knows its PIN: the test code is no way in.
            let guess = try await curl.post("user/confirmCode", #"{"userPhone":"79990001122","smsCode":"1001"}"#)
            #expect(guess.status == 403 || guess.status == 200)
        }
    }

    @Test func confirmingAgainFromTheSameDeviceRotatesTheToken() async throws {
        try await withOperator(Self.sms) { simulator, curl in
            let old = try await curl.login(simulator, device: "laptop")
            let other = try await curl.login(simulator, device: "phone")
            let new = try await curl.login(simulator, device: "laptop")
            #expect(old != new)
            let refused = try await curl.post("user/ping", token: old)
            #expect(refused.status == 401)
            #expect(refused.text == #"{"code":401,"name":"Не авторизован","message":"Не авторизован"}"#)
            #expect(try await curl.post("user/ping", token: new).status == 204)
            // Another device's token is untouched.
            #expect(try await curl.post("user/ping", token: other).status == 204)
        }
    }

    @Test func authorisationErrorsHaveTheServersTexts() async throws {
        try await withOperator(Self.sms) { simulator, curl in
            let none = try await curl.post("address/getAddressList")
            #expect(none.status == 403)
            #expect(none.message == "Ошибка авторизации")
            let basic = try await curl.post("address/getAddressList", authorization: "Basic YWRtaW46YWRtaW4=")
            #expect(basic.status == 422)
            #expect(basic.message == "Отсутствует токен авторизации")
            let unknown = try await curl.post("address/getAddressList", token: UUID().uuidString)
            #expect(unknown.status == 401)
            #expect(unknown.message == "Не авторизован")
            // No loopback back door: ?phone= without a token is refused like any request without one.
            let backDoor = try await curl.post("address/getAddressList", query: "?phone=\(simulator.options.testPhone)")
            #expect(backDoor.status == 403)
            // Only POST; unknown methods are 405 before any token check.
            #expect(try await curl.get("\(simulator.baseURL)/user/ping").status == 404)
            #expect(try await curl.post("pay/prepare").status == 405)
        }
    }

    @Test func tokensAreRevokedAfterNRequestsOrAllAtOnce() async throws {
        var options = Self.sms
        options.revokeAfter = 2
        try await withOperator(options) { simulator, curl in
            let token = try await curl.login(simulator)
            #expect(try await curl.post("user/ping", token: token).status == 204)
            #expect(try await curl.post("user/ping", token: token).status == 204)
            #expect(try await curl.post("user/ping", token: token).status == 401)
            let fresh = try await curl.login(simulator, device: "device-2")
            simulator.revokeAllTokens()
            #expect(try await curl.post("user/ping", token: fresh).status == 401)
        }
    }
}
