import Foundation
import IntercomBase

/// Reads a SmartYard answer: `{"code":200,"name":"OK","message":"OK","data":…}` on success,
/// an empty 204 (never parsed), or `{"code":N,"name":…,"message":…[,"data":{"error":…}]}`.
public enum OperatorEnvelope {
    /// Where a request was made: a 403 or 404 means something else while confirming a login code.
    public enum Context: Sendable {
        case session
        case login
    }

    /// `data` of a successful answer (nil when the server dropped it or sent 204), or the error.
    public static func decode(status: Int, body: Data, operatorName: String,
                              context: Context = .session) throws(OperatorError) -> JSONValue? {
        if status == 204 { return nil }
        if (200..<300).contains(status) {
            if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return nil }
            guard let value = parse(body) else {
                throw OperatorError(operatorName: operatorName,
                                    kind: .badAnswer(detail: "HTTP \(status) with a body that is not JSON"))
            }
            guard case .object = value, value["code"] != nil || value["data"] != nil else {
                // Not an envelope: an operator's custom method may answer the bare data.
                return value
            }
            guard let data = value["data"], data != .null else { return nil }
            return data
        }
        if (300..<400).contains(status) {
            // Redirects are not followed: a token must not go wherever a Location points.
            throw OperatorError(operatorName: operatorName, kind: .badAnswer(
                detail: "HTTP \(status) redirect; check that [operator \(operatorName)] api is the API's own URL (https?)"))
        }
        throw error(status: status, body: body, operatorName: operatorName, context: context)
    }

    /// The error for a non-2xx status, with the server's message when the body has one.
    static func error(status: Int, body: Data, operatorName: String, context: Context) -> OperatorError {
        let envelope = parse(body)
        var texts: [String] = []
        if let message = envelope?.text("message") ?? envelope?.text("name") { texts.append(message) }
        // `data.error`, or `data` itself when it is text (frs/like's 406 carries the face server's message so).
        if let detail = envelope?["data"]?.text("error") ?? envelope?["data"]?.stringValue, !texts.contains(detail) {
            texts.append(detail)
        }
        let server = texts.isEmpty ? nil : texts.joined(separator: "; ")
        let kind: OperatorError.Kind
        switch (status, context) {
        case (401, _), (410, _), (424, _):
            kind = .loginExpired(status: status)
        case (429, _):
            kind = .codeTooSoon
        case (402, _):
            kind = .paymentRequired
        case (403, _) where says(server, maxAttemptsTexts):
            kind = .tooManyAttempts
        case (403, _) where says(server, overLimitTexts):
            kind = .deviceLimit
        case (403, .login):
            kind = .wrongCode
        case (403, .session):
            kind = .forbidden
        case (404, .login):
            kind = .noPendingCode
        case (404, .session):
            kind = .notFound
        case (405, _):
            kind = .notAllowed
        case (400..<500, _):
            kind = .rejected(status: status)
        default:
            kind = .serverFailed(status: status)
        }
        return OperatorError(operatorName: operatorName, kind: kind, serverText: server)
    }

    /// `mobile.maxAttempts` as the server's language files have it (`server/i18n/en.json`, `ru.json`;
    /// older servers send the Russian hard-coded), and the bare word older texts had. The server
    /// writes its texts in the request's `Accept-Language`, else its own language: both are read.
    static let maxAttemptsTexts = ["Maximum number of login attempts exceeded", "Превышено максимальное число попыток ввода", "attempts"]
    /// `mobile.overLimit`: too many devices logged in with the number.
    static let overLimitTexts = ["Device limit per mobile number exceeded", "Превышен лимит устройств на мобильный номер", "device limit"]

    static func says(_ server: String?, _ texts: [String]) -> Bool {
        guard let server else { return false }
        return texts.contains { server.localizedCaseInsensitiveContains($0) }
    }

    static func parse(_ body: Data) -> JSONValue? {
        guard !body.isEmpty, let text = String(data: body, encoding: .utf8) else { return nil }
        return JSONValue.parse(text)
    }
}
