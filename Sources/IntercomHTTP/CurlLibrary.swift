import CCurl

/// libcurl, loaded (dlopen) when the process makes its first HTTP event loop (its first panel,
/// operator or TLS probe), and `curl_global_init` run once then: it is thread-safe only in curl
/// builds that say so, and a `static let` runs its initialiser exactly once whichever thread gets
/// there first. The light binary's `log` without operators, `ctl` and attached screen never map
/// libcurl or its ~30 dependencies. Never closed, never `curl_global_cleanup`ed: the process keeps it.
enum CurlLibrary {
    /// The loaded table, on the heap for the life of the process: CCurlShim's typed wrappers take
    /// its address to reach the variadic functions. C function pointers, immutable once filled.
    struct Functions: @unchecked Sendable {
        let table: UnsafePointer<intercom_curl>
        /// The functions Swift calls directly.
        var c: intercom_curl { table.pointee }

        /// curl's words for a result code (a static string; "" should curl ever give none).
        func text(_ code: CURLcode) -> String { c.easy_strerror(code).map { String(cString: $0) } ?? "" }
        func text(_ code: CURLMcode) -> String { c.multi_strerror(code).map { String(cString: $0) } ?? "" }
    }

    private static let loaded: Result<Functions, CurlLoadError> = {
        let result = open(INTERCOM_CURL_SONAME)
        guard case .success(let functions) = result else { return result }
        guard functions.c.global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else {
            return .failure(CurlLoadError(reason: "curl_global_init failed"))
        }
        return result
    }()

    /// The library's functions, or why it could not be loaded (one line naming the package).
    static func load() -> Result<Functions, CurlLoadError> { loaded }

    /// Loads `soname` without keeping it as the process's library (and without curl_global_init):
    /// `load()` uses it once; tests name a library that is not there.
    static func open(_ soname: String) -> Result<Functions, CurlLoadError> {
        let table = UnsafeMutablePointer<intercom_curl>.allocate(capacity: 1)
        var error = [CChar](repeating: 0, count: 512)
        guard intercom_curl_open(soname, table, &error, error.count) == 0 else {
            table.deallocate()
            return .failure(CurlLoadError(reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                                         as: UTF8.self)))
        }
        return .success(Functions(table: UnsafePointer(table)))
    }
}

/// libcurl could not be loaded: what failed and the Debian package that brings it.
public struct CurlLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    public var description: String {
        "HTTP needs libcurl, which could not be loaded (\(reason)): install the Debian package libcurl4"
    }
}
