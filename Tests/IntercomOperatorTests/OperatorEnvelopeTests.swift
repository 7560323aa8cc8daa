import Foundation
import Testing
@testable import IntercomOperator
import IntercomBase

/// Answers as a SmartYard server sends them (bodies copied from the reference's observed ones).
@Suite struct OperatorEnvelopeTests {
    func decode(_ status: Int, _ body: String, context: OperatorEnvelope.Context = .session) throws(OperatorError) -> JSONValue? {
        try OperatorEnvelope.decode(status: status, body: Data(body.utf8), operatorName: "home", context: context)
    }

    func failure(_ status: Int, _ body: String, context: OperatorEnvelope.Context = .session) -> OperatorError? {
        do {
            _ = try decode(status, body, context: context)
            return nil
        } catch {
            return error
        }
    }

    @Test func successEnvelopeGivesItsData() throws {
        let data = try decode(200, #"{"code":200,"name":"OK","message":"OK","data":{"method":"sms"}}"#)
        #expect(data?["method"]?.stringValue == "sms")
    }

    @Test func envelopeWithoutDataIsEmpty() throws {
        #expect(try decode(200, #"{"code":200,"name":"OK","message":"OK"}"#) == nil)
    }

    @Test func noContentIsNeverParsed() throws {
        #expect(try decode(204, "") == nil)
        // A 204 with a stray body is still "accepted": the body is not read.
        #expect(try decode(204, "<html>not json</html>") == nil)
    }

    @Test func nonJSONSuccessIsABadAnswer() {
        let error = failure(200, "<html>502 Bad Gateway</html>")
        #expect(error?.exitCode == 65)
        #expect(error?.description.contains("nothing was stored") == true)
    }

    @Test func revokedOrUnknownTokenAsksForLogin() {
        for status in [401, 410, 424] {
            let error = failure(status, #"{"code":\#(status),"name":"Не авторизован","message":"Не авторизован"}"#)
            #expect(error?.kind == .loginExpired(status: status))
            #expect(error?.exitCode == 77)
            #expect(error?.description.contains("no longer accepts this login; run 'intercom login home'") == true)
            #expect(error?.description.contains("Не авторизован") == true)
        }
    }

    @Test func loginErrorsHaveTheirOwnLines() {
        let soon = failure(429, #"{"code":429,"name":"Too Many Requests","message":"Too Many Requests"}"#, context: .login)
        #expect(soon?.kind == .codeTooSoon)
        #expect(soon?.description.contains("less than 60 s ago") == true)
        let wrong = failure(403, #"{"code":403,"name":"The PIN code was entered incorrectly","message":"The PIN code was entered incorrectly"}"#,
                            context: .login)
        #expect(wrong?.kind == .wrongCode)
        #expect(wrong?.exitCode == 77)
        #expect(wrong?.description.contains("The PIN code was entered incorrectly") == true)
        let many = failure(403, #"{"code":403,"name":"Maximum number of login attempts exceeded","message":"Maximum number of login attempts exceeded"}"#,
                           context: .login)
        #expect(many?.kind == .tooManyAttempts)
        let none = failure(404, #"{"code":404,"name":"Not found","message":"Not found"}"#, context: .login)
        #expect(none?.kind == .noPendingCode)
        let devices = failure(403, #"{"code":403,"name":"Forbidden","message":"Forbidden","data":{"error":"Device limit per mobile number exceeded"}}"#,
                              context: .login)
        #expect(devices?.kind == .deviceLimit)
        #expect(devices?.serverText == "Forbidden; Device limit per mobile number exceeded")
        #expect(devices?.description.contains("allows no more devices for this phone number") == true)
        // The same texts in Russian (`server/i18n/ru.json`), which a server sends for `ru` or as its own language.
        let manyRU = failure(403, #"{"code":403,"name":"Превышено максимальное число попыток ввода","message":"Превышено максимальное число попыток ввода"}"#,
                             context: .login)
        #expect(manyRU?.kind == .tooManyAttempts)
        let devicesRU = failure(403, #"{"code":403,"name":"Запрещено","message":"Запрещено","data":{"error":"Превышен лимит устройств на мобильный номер"}}"#,
                                context: .login)
        #expect(devicesRU?.kind == .deviceLimit)
        #expect(devicesRU?.description.contains("(HTTP 403: Запрещено; Превышен лимит устройств на мобильный номер)") == true)
        // frs/like's 406 carries the face server's message as `data` itself.
        let noFace = failure(406, #"{"code":406,"name":"Not Acceptable","message":"Not Acceptable","data":"no face"}"#)
        #expect(noFace?.kind == .rejected(status: 406) && noFace?.serverText == "Not Acceptable; no face")
    }

    @Test func sessionErrors() {
        let blocked = failure(404, #"{"code":404,"name":"The service is unavailable (the contract is blocked or not paid)","message":"The service is unavailable (the contract is blocked or not paid)"}"#)
        #expect(blocked?.kind == .notFound)
        #expect(blocked?.exitCode == 77)
        #expect(blocked?.description.contains("the contract is blocked or not paid") == true)
        #expect(failure(402, #"{"code":402,"name":"Payment Required","message":"Payment Required"}"#)?.kind == .paymentRequired)
        #expect(failure(403, #"{"code":403,"name":"Ошибка авторизации","message":"Ошибка авторизации"}"#)?.kind == .forbidden)
        let rejected = failure(422, #"{"code":422,"name":"Operation failed. Is the phone already in the list?","message":"Operation failed. Is the phone already in the list?"}"#)
        #expect(rejected?.kind == .rejected(status: 422))
        #expect(rejected?.exitCode == 65)
        let broken = failure(502, "<html>bad gateway</html>")
        #expect(broken?.kind == .serverFailed(status: 502))
        #expect(broken?.exitCode == 69)
        #expect(broken?.serverText == nil)
    }

    @Test func serverTextIsOneShortLine() {
        let long = String(repeating: "x", count: 500) + "\nsecond line"
        let clipped = OperatorError.clip(long)
        #expect(!clipped.contains("\n"))
        #expect(clipped.count <= 201)
    }
}

extension OperatorEnvelopeTests {
    @Test func redirectsAreNotFollowedAndSaySo() {
        let error = failure(301, "")
        #expect(error?.exitCode == 65)
        #expect(error?.description.contains("redirect") == true)
    }
}
