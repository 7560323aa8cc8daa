import Foundation

/// One request as `HTTPClient` hands it to the event loop: everything the transfer needs that
/// can differ between two requests on the same client.
struct HTTPRequest: Sendable {
    let url: String
    /// The whole-request limit; nil for a stream, which ends on `idle` instead.
    let total: Duration?
    /// With no byte for this long the transfer fails (curl's low-speed limit).
    let idle: Duration?
    /// The largest body buffered; a 2xx stream's body is not buffered and not capped.
    let cap: Int
    /// nil: a GET; else the POST body.
    var body: Data? = nil
    /// Whole `Name: value` lines.
    var headers: [String] = []
    /// How much curl reads from the socket at once (CURLOPT_BUFFERSIZE); nil: curl's 16 kB. A download
    /// of megabytes asks more (as the curl tool does: 100 kB), a few syscalls and callbacks instead of hundreds.
    var receiveBuffer: Int? = nil
}
