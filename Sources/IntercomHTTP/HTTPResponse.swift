import Foundation

/// A finished HTTP exchange. Non-2xx statuses are returned, not thrown:
/// what a 401 or a 404 means depends on the caller (a panel maps them itself).
public struct HTTPResponse: Sendable {
    public let status: Int
    public let contentType: String?
    public let body: Data
    /// The schemes the server's challenges (401 `WWW-Authenticate`) named during this exchange.
    public let offeredAuth: HTTPAuthMethods

    public init(status: Int, contentType: String?, body: Data, offeredAuth: HTTPAuthMethods = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.offeredAuth = offeredAuth
    }

    /// Panel bodies are ASCII in practice; lossy decoding keeps a stray byte from hiding the rest.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
