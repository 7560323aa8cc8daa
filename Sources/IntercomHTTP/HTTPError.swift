import CCurl
import CCurlShim
import IntercomBase

/// What libcurl reported, kept verbatim so a caller can branch on the code
/// and a log can show curl's own words.
public struct CurlFailure: Error, Sendable, CustomStringConvertible {
    /// Internal: a C type stays inside the target that owns libcurl; the code shows in `description`.
    let code: CURLcode
    public let message: String

    public var description: String { "\(message) (curl \(code.rawValue))" }

    /// The TLS peer's certificate did not verify (unknown CA, wrong name, expired).
    package var isCertificateFailure: Bool {
        [CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR].contains(code)
    }

    /// Failures where the panel never answered: the usual "it is offline" family.
    package var isConnectFailure: Bool {
        [CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY]
            .contains(code)
    }
}

/// Transport-level errors of `HTTPClient`; `PanelError` turns them into user-facing ones.
public enum HTTPError: Error, Sendable, CustomStringConvertible {
    /// Connect or read failed; the curl code says which.
    case transfer(CurlFailure)
    /// The connect timeout or the total timeout ran out.
    case timedOut(CurlFailure)
    /// The body grew past the cap; the transfer was aborted.
    case tooLarge(limit: Int)
    /// The calling task was cancelled; the transfer was aborted.
    case cancelled
    /// The handle refused an option (a bad URL, an unsupported protocol …).
    case setup(CurlFailure)
    /// libcurl is not installed (or lacks a function): loaded on first use, not at start.
    case unavailable(DynamicLibraryError)

    public var description: String {
        switch self {
        case .transfer(let f): return f.description
        case .timedOut(let f): return "timed out: \(f.description)"
        case .tooLarge(let limit): return "body larger than \(limit) bytes"
        case .cancelled: return "cancelled"
        case .setup(let f): return "bad request setup: \(f.description)"
        case .unavailable(let e): return e.description
        }
    }
}
