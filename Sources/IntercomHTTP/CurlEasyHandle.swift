import CCurl

/// Owns one libcurl easy handle; curl keeps the panel connection alive inside it
/// between requests, which is why a client reuses one handle rather than one per call.
/// Not Sendable: an `HTTPClient`'s handle lives on the event loop thread (`CurlChannel`).
final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer

    init?() {
        // Reference-counted inside curl and thread-safe since 7.84, so per-handle init is fine.
        guard curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else { return nil }
        guard let raw = curl_easy_init() else {
            curl_global_cleanup()
            return nil
        }
        self.raw = raw
    }

    deinit {
        curl_easy_cleanup(raw)
        curl_global_cleanup()
    }
}
