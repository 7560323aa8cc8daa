import Foundation
import IntercomBase

/// `user/requestCode`, `user/confirmCode` and `user/checkPhone`: SMS PINs, outgoing-call confirmation,
/// test numbers, attempts and token rotation.
extension OperatorService {
    /// How long a PIN waits for its confirmation, and a second request is refused (429).
    static let pinLifetime: TimeInterval = 60
    /// Confirmation attempts are counted per phone for this long.
    static let attemptsWindow: TimeInterval = 3600
    static let maxAttempts = 5

    /// 11 digits after a leading 8 became 7; nil for anything else (the server's 422).
    static func normalizedPhone(_ value: JSONValue?) -> String? {
        guard var phone = value?.loose, !phone.isEmpty else { return nil }
        if phone.hasPrefix("8") { phone = "7" + phone.dropFirst() }
        guard phone.count == 11, phone.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return phone
    }

    /// The PIN of a test number (`test_numbers`: the test phone's, the resident's); nil for any other.
    func fixedCode(_ phone: String) -> String? {
        if phone == options.testPhone { return options.testCode }
        if phone == options.residentPhone { return options.residentCode }
        return nil
    }

    /// The number a user phones to confirm by an outgoing call (nobody answers it: the switch only
    /// notes the caller's number).
    static let confirmationNumber = "+78005550000"

    /// The method the client asks for, else the server's own (`confirmMethod`, "sms" by default).
    /// With SMS every number gets `{"method":"sms"}`: the test number's PIN is fixed and never refused
    /// with 429; any other number's PIN goes to an SMS gateway that does not exist, so nobody learns
    /// it — such a number can only meet 429 (a second request within 60 s) and 403 (guesses).
    /// With "outgoingCall" every number gets the number to phone; nothing is stored.
    func requestCode(_ body: JSONValue, _ request: OperatorRequest) -> OperatorReply {
        let language = request.language
        guard let phone = Self.normalizedPhone(body["userPhone"]) else { return Self.error(422, language) }
        let method = body["method"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? options.confirmMethod.rawValue
        if method == "outgoingCall" {
            return OperatorEnvelope.ok(.object([("method", .string("outgoingCall")),
                                                ("confirmationNumbers", .array([.string(Self.confirmationNumber)]))]))
        }
        let now = Date()
        let fixed = fixedCode(phone)
        let refused: Bool = state.withLock { s in
            s.expire(now: now)
            if fixed == nil, s.pins[phone] != nil { return true }
            let pin = fixed ?? String(format: "%04d", Int.random(in: 0...9999))
            s.pins[phone] = OperatorState.PendingPIN(pin: pin, expires: now.addingTimeInterval(Self.pinLifetime))
            return false
        }
        if refused { return Self.error(429, language) }
        return OperatorEnvelope.ok(.object([("method", .string("sms"))]))
    }

    func confirmCode(_ body: JSONValue, _ request: OperatorRequest) -> OperatorReply {
        let language = request.language
        guard let phone = Self.normalizedPhone(body["userPhone"]),
              let pin = body["smsCode"]?.loose, pin.count == 4 else { return Self.error(422, language) }
        let key = Self.deviceKey(body["deviceToken"]?.loose, request)
        let now = Date()
        enum Outcome { case noPIN, wrong, tooMany, right }
        let outcome: Outcome = state.withLock { s in
            s.expire(now: now)
            // Every well-formed attempt counts, a pending PIN or not.
            var attempts = s.attempts[phone] ?? OperatorState.Attempts(count: 0, expires: now)
            attempts.count += 1
            attempts.expires = now.addingTimeInterval(Self.attemptsWindow)
            s.attempts[phone] = attempts
            guard let pending = s.pins[phone] else { return .noPIN }
            guard pending.pin == pin else {
                if attempts.count > Self.maxAttempts {
                    s.pins[phone] = nil
                    s.attempts[phone] = nil
                    return .tooMany
                }
                return .wrong
            }
            s.pins[phone] = nil
            s.attempts[phone] = nil
            return .right
        }
        switch outcome {
        case .noPIN:
            return Self.error(404, language)
        case .wrong:
            return OperatorEnvelope.error(403, OperatorText.wrongPIN(language))
        case .tooMany:
            return OperatorEnvelope.error(403, OperatorText.tooManyAttempts(language))
        case .right:
            // The same device confirming again gets a new token and the old one dies; a new device is added.
            guard let token = issueToken(phone: phone, deviceKey: key) else { return Self.deviceLimitReply(language) }
            return tokenReply(token, phone: phone)
        }
    }

    /// After an outgoing call: the switch never saw a call from any number, but test numbers pass
    /// (as the real server lets its test numbers through); anyone else gets 401.
    func checkPhone(_ body: JSONValue, _ request: OperatorRequest) -> OperatorReply {
        let language = request.language
        guard let phone = Self.normalizedPhone(body["userPhone"]) else { return Self.error(422, language) }
        guard fixedCode(phone) != nil else { return Self.error(401, language) }
        let key = Self.deviceKey(body["deviceToken"]?.loose, request)
        guard let token = issueToken(phone: phone, deviceKey: key) else { return Self.deviceLimitReply(language) }
        return tokenReply(token, phone: phone)
    }

    /// `response(code)` with no text of its own: the server's `responses.{code}Name` in the
    /// requester's language (its `response()` reads `i18n`), as name and message.
    static func error(_ code: Int, _ language: String) -> OperatorReply {
        OperatorEnvelope.error(code, OperatorText.response(code, language))
    }

    /// Past the device limit (ours: the stored PHP names `mobile.overLimit` in its language files
    /// but not where it sends it): 403, its text in `data.error`.
    static func deviceLimitReply(_ language: String) -> OperatorReply {
        OperatorEnvelope.error(403, OperatorText.response(403, language),
                               data: .object([("error", .string(OperatorText.deviceLimit(language)))]))
    }

    /// A new token for the device (the same device's old token dies); nil past the device limit.
    private func issueToken(phone: String, deviceKey key: String) -> String? {
        let revokeAfter = options.revokeAfter
        let limit = options.deviceLimit
        return state.withLock { s in
            if s.devices[key] == nil, s.devices.values.filter({ $0.phone == phone }).count >= limit { return nil }
            let token = UUID().uuidString.lowercased()
            s.devices[key] = OperatorState.Device(phone: phone, token: token, remaining: revokeAfter)
            return token
        }
    }

    private func tokenReply(_ token: String, phone: String) -> OperatorReply {
        let names = phone == options.testPhone ? OperatorFixture.names : (name: "", patronymic: "", last: "")
        return OperatorEnvelope.ok(.object([
            ("accessToken", .string(token)),
            ("names", .object([("name", .string(names.name)), ("patronymic", .string(names.patronymic)),
                               ("last", .string(names.last))])),
        ]))
    }

    /// `"*" + deviceToken`; without one, the app's headers (the server hashes them), else "default".
    static func deviceKey(_ deviceToken: String?, _ request: OperatorRequest) -> String {
        if let deviceToken, !deviceToken.isEmpty { return "*" + deviceToken }
        let headers = (request.header("Accept-Language") ?? "") + (request.header("X-System-Info") ?? "")
        return headers.isEmpty ? "default" : "headers:" + headers
    }
}
