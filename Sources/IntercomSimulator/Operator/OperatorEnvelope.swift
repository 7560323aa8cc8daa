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

/// The fixed texts the real server sends (see the reference's error table).
enum OperatorText {
    static let noAuthorization = "Ошибка авторизации"
    static let noToken = "Отсутствует токен авторизации"
    static let unauthorized = "Не авторизован"
    static let wrongPIN = "The PIN code was entered incorrectly"
    static let tooManyAttempts = "Maximum number of login attempts exceeded"
    static let deviceLimit = "Device limit per mobile number exceeded"
    static let alreadyShared = "Operation failed. Is the phone already in the list?"
    static let noRightToDelete = "Нет прав для удаления"
}

/// Dates as the API writes them: "Y-m-d H:i:s" in the operator's local time zone.
struct OperatorClock: Sendable {
    let timeZone: TimeZone

    private func formatter(_ format: String) -> DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = timeZone
        f.dateFormat = format
        return f
    }

    func dateTime(_ date: Date) -> String { formatter("yyyy-MM-dd HH:mm:ss").string(from: date) }
    func day(_ date: Date) -> String { formatter("yyyy-MM-dd").string(from: date) }
    func time(_ date: Date) -> String { formatter("HH:mm:ss").string(from: date) }

    /// A "Y-m-d H:i:s" (or "Y-m-d") text read as operator-local time.
    func parse(_ text: String) -> Date? {
        formatter("yyyy-MM-dd HH:mm:ss").date(from: text) ?? formatter("yyyy-MM-dd").date(from: text)
    }
}

extension JSONValue {
    /// A request field as text whether the client sent a string or a number (PHP reads both).
    var loose: String? {
        switch self {
        case .string(let s): s
        case .integer(let i): String(i)
        case .number(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .bool(let b): b ? "1" : ""
        default: nil
        }
    }

    static func flag(_ on: Bool) -> JSONValue { .string(on ? "t" : "f") }
}
