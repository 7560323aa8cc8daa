import Foundation

/// One HTTP request as the operator simulator sees it: libmicrohttpd's pieces gathered on the
/// connection's thread.
struct OperatorRequest: Sendable {
    let method: String
    /// The URL path without the query.
    let path: String
    /// The headers the API reads, by lower-cased name; an empty header counts as absent.
    let headers: [String: String]
    let body: Data
    /// Set when the body went over the limit (the rest was dropped).
    let bodyTooLarge: Bool

    func header(_ name: String) -> String? {
        guard let value = headers[name.lowercased()], !value.isEmpty else { return nil }
        return value
    }
}

/// What the operator simulator answers, before it becomes an MHD response.
enum OperatorReply: Sendable {
    /// A JSON body with this HTTP status (`application/json`, as the PHP server labels it).
    case json(status: UInt32, String)
    /// No body at all (204).
    case empty(status: UInt32)
    /// Any other bytes (a camshot JPEG, the garbage fault's HTML).
    case bytes(status: UInt32, type: String, Data)
    /// A never-ending-looking JSON answer of `bytes` bytes, chunked, with no Content-Length (the huge fault).
    case huge(bytes: UInt64)

    var status: UInt32 {
        switch self {
        case .json(let status, _), .empty(let status), .bytes(let status, _, _): status
        case .huge: 200
        }
    }
}
