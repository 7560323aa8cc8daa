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
        if let detail = envelope?["data"]?.text("error"), !texts.contains(detail) { texts.append(detail) }
        let server = texts.isEmpty ? nil : texts.joined(separator: "; ")
        let kind: OperatorError.Kind
        switch (status, context) {
        case (401, _), (410, _), (424, _):
            kind = .loginExpired(status: status)
        case (429, _):
            kind = .codeTooSoon
        case (402, _):
            kind = .paymentRequired
        case (403, _) where (server ?? "").localizedCaseInsensitiveContains("attempts"):
            kind = .tooManyAttempts
        case (403, .login):
            // "Device limit per mobile number exceeded" is a 403 too; its text says so.
            kind = (server ?? "").localizedCaseInsensitiveContains("device limit") ? .forbidden : .wrongCode
        case (403, .session):
            kind = .forbidden
        case (404, .login):
            kind = .noPendingCode
        case (404, .session):
            kind = .notFound
        case (400..<500, _):
            kind = .rejected(status: status)
        default:
            kind = .serverFailed(status: status)
        }
        return OperatorError(operatorName: operatorName, kind: kind, serverText: server)
    }

    static func parse(_ body: Data) -> JSONValue? {
        guard !body.isEmpty, let text = String(data: body, encoding: .utf8) else { return nil }
        return JSONValue.parse(text)
    }
}
