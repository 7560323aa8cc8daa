import CCurl
import CCurlShim
import Dispatch
import Foundation
import IntercomBase

/// A TLS handshake with a SIP registrar, done with libcurl's verification, to say *why* liblinphone's
/// TLS registration failed: belle-sip reports a refused certificate only as "io error".
public enum TLSProbe {
    /// nil when the handshake succeeds with these trust settings; else curl's reason, e.g.
    /// "SSL certificate problem: self-signed certificate".
    public static func handshakeFailure(host: String, port: Int, tls: SIPTLSSettings,
                                        timeout: Duration = .seconds(3)) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: handshake(host: host, port: port, tls: tls, timeout: timeout))
            }
        }
    }

    private static func handshake(host: String, port: Int, tls: SIPTLSSettings, timeout: Duration) -> String? {
        let curl: CurlLibrary.Functions
        switch CurlLibrary.loaded {
        case .success(let functions): curl = functions
        case .failure(let error): return error.description
        }
        guard let easy = CurlEasyHandle(curl: curl) else { return "curl_easy_init failed" }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code = errorBuffer.withUnsafeMutableBufferPointer { buffer -> CURLcode in
            let raw = easy.raw
            _ = intercom_curl_setopt_ptr(curl.table, raw, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            // https:// only to make curl speak TLS; CONNECT_ONLY stops after the handshake, so no
            // HTTP request ever reaches the registrar.
            _ = intercom_curl_setopt_str(curl.table, raw, CURLOPT_URL, "https://\(shownHost):\(port)/")
            _ = intercom_curl_setopt_long(curl.table, raw, CURLOPT_CONNECT_ONLY, 1)
            _ = intercom_curl_setopt_long(curl.table, raw, CURLOPT_NOSIGNAL, 1)
            _ = intercom_curl_setopt_long(curl.table, raw, CURLOPT_CONNECTTIMEOUT_MS, timeout.curlMilliseconds)
            _ = intercom_curl_setopt_long(curl.table, raw, CURLOPT_SSL_VERIFYPEER, tls.verify ? 1 : 0)
            _ = intercom_curl_setopt_long(curl.table, raw, CURLOPT_SSL_VERIFYHOST, tls.verify ? 2 : 0)
            if let ca = tls.caFile {
                _ = intercom_curl_setopt_str(curl.table, raw, ca.hasSuffix("/") || isDirectory(ca) ? CURLOPT_CAPATH : CURLOPT_CAINFO, ca)
            }
            let result = curl.c.easy_perform(raw)
            _ = intercom_curl_setopt_ptr(curl.table, raw, CURLOPT_ERRORBUFFER, nil)
            return result
        }
        guard code != CURLE_OK else { return nil }
        let message = errorBuffer.withUnsafeBufferPointer { $0.baseAddress.map { String(cString: $0) } } ?? ""
        return message.isEmpty ? curl.text(code) : message
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }
}
