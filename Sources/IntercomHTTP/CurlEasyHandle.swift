import CCurl

/// Owns one libcurl easy handle; curl keeps the panel connection alive inside it
/// between requests, which is why a client reuses one handle rather than one per call.
/// Not Sendable: an `HTTPClient`'s handle lives on the event loop thread (`CurlChannel`).
final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer
    /// The loaded library (curl_global_init already done, once, by `CurlLibrary`).
    let curl: CurlLibrary.Functions

    init?(curl: CurlLibrary.Functions) {
        guard let raw = curl.c.easy_init() else { return nil }
        self.raw = raw
        self.curl = curl
    }

    deinit { curl.c.easy_cleanup(raw) }
}
