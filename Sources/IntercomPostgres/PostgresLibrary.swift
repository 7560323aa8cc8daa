import CPostgres
import IntercomBase

/// libpq, loaded (dlopen) the first time a desk connects to its site: a daemon without `[site]`
/// never maps it. A `static let` loads it exactly once, whichever thread gets there first.
enum PostgresLibrary {
    /// The loaded table; C function pointers, immutable once filled.
    typealias Functions = DynamicLibrary.Table<intercom_libpq>

    /// The library's functions, or why it could not be loaded (one line naming the package).
    static let loaded: Result<Functions, DynamicLibraryError> = open()

    /// Loads `soname`; tests name a library that is not there.
    static func open(_ soname: String = INTERCOM_LIBPQ_SONAME) -> Result<Functions, DynamicLibraryError> {
        DynamicLibrary.load(.init(soname: soname, purpose: "a site's PostgreSQL", package: "libpq5"), intercom_libpq_open)
    }
}
