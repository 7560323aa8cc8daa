import CCurl
import IntercomBase

/// libcurl, loaded (dlopen) when the process makes its first HTTP event loop (its first panel,
/// operator or TLS probe), and `curl_global_init` run once then: it is thread-safe only in curl
/// builds that say so, and a `static let` runs its initialiser exactly once whichever thread gets
/// there first. The light binary's `log` without operators, `ctl` and attached screen never map
/// libcurl or its ~30 dependencies. Never closed, never `curl_global_cleanup`ed: the process keeps it.
enum CurlLibrary {
    /// The loaded table, on the heap for the life of the process: CCurlShim's typed wrappers take
    /// its address to reach the variadic functions. C function pointers, immutable once filled.
    typealias Functions = DynamicLibrary.Table<intercom_curl>

    /// The library's functions, or why it could not be loaded (one line naming the package).
    static let loaded: Result<Functions, DynamicLibraryError> = {
        let result = open()
        guard case .success(let functions) = result else { return result }
        guard functions.c.global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else {
            return .failure(DynamicLibraryError(library: name(INTERCOM_CURL_SONAME), reason: "curl_global_init failed"))
        }
        return result
    }()

    /// Loads `soname` without keeping it as the process's library (and without curl_global_init):
    /// `loaded` uses it once; tests name a library that is not there.
    static func open(_ soname: String = INTERCOM_CURL_SONAME) -> Result<Functions, DynamicLibraryError> {
        DynamicLibrary.load(name(soname), intercom_curl_open)
    }

    private static func name(_ soname: String) -> DynamicLibrary.Name {
        DynamicLibrary.Name(soname: soname, purpose: "HTTP", package: "libcurl4")
    }
}

extension DynamicLibrary.Table where Functions == intercom_curl {
    /// The table's address, which CCurlShim's wrappers of the variadic functions take.
    var table: UnsafePointer<intercom_curl> { pointer }

    /// curl's words for a result code (a static string; "" should curl ever give none).
    func text(_ code: CURLcode) -> String { c.easy_strerror(code).map { String(cString: $0) } ?? "" }
    func text(_ code: CURLMcode) -> String { c.multi_strerror(code).map { String(cString: $0) } ?? "" }
}
