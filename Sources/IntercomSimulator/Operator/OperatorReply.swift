import Foundation

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
