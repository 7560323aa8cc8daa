import Foundation

/// One HTTP request as the operator simulator sees it: libmicrohttpd's pieces gathered on the
/// connection's thread.
struct OperatorRequest: Sendable {
    let method: String
    /// The URL path without the query.
    let path: String
    /// The headers the API reads, by lower-cased name; an empty header counts as absent.
    let headers: [String: String]
    /// The query's `token` (a camera URL's), decoded; nil when absent.
    let cameraToken: String?
    let body: Data
    /// Set when the body went over the limit (the rest was dropped).
    let bodyTooLarge: Bool

    func header(_ name: String) -> String? {
        guard let value = headers[name.lowercased()], !value.isEmpty else { return nil }
        return value
    }

    /// `Accept-Language` as sent ("" without one): the server writes its texts in it.
    var language: String { header("Accept-Language") ?? "" }
}
