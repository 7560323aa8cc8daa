import Foundation
import IntercomBase

/// The SmartYard envelope: `{"code","name","message","data"}` with the HTTP status equal to `code`,
/// `data` left out when empty or false, and 204 with no body at all.
enum OperatorEnvelope {
    static func ok(_ data: JSONValue?) -> OperatorReply {
        var fields: [(String, JSONValue)] = [("code", .integer(200)), ("name", .string("OK")), ("message", .string("OK"))]
        if let data, !isEmpty(data) { fields.append(("data", data)) }
        return .json(status: 200, JSONValue.object(fields).encoded)
    }

    static let noContent = OperatorReply.empty(status: 204)

    /// An error with the server's own text as both name and message (hard-coded Russian or i18n English).
    static func error(_ code: Int, _ text: String, data: JSONValue? = nil) -> OperatorReply {
        var fields: [(String, JSONValue)] = [("code", .integer(code)), ("name", .string(text)), ("message", .string(text))]
        if let data, !isEmpty(data) { fields.append(("data", data)) }
        return .json(status: UInt32(code), JSONValue.object(fields).encoded)
    }

    /// An error without a text of its own: the standard HTTP reason as name and message.
    static func error(_ code: Int) -> OperatorReply {
        error(code, reason(code))
    }

    static func reason(_ code: Int) -> String {
        switch code {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 413: "Payload Too Large"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        default: "Internal Server Error"
        }
    }

    /// PHP's `if ($data)`: an empty array, an empty object, "", "0" and false are all left out.
    private static func isEmpty(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let items): items.isEmpty
        case .object(let fields): fields.isEmpty
        case .string(let s): s.isEmpty || s == "0"
        case .bool(let b): !b
        case .null: true
        default: false
        }
    }
}
