internal import CSQLite

/// libsqlite3, loaded (dlopen) the first time the process opens the journal: `export`, `open`,
/// `doors` and an attached screen never map it (DynamicLibrary says why that matters).
enum SQLiteLibrary {
    /// C function pointers, immutable once filled.
    struct Functions: @unchecked Sendable {
        let table: UnsafePointer<intercom_sqlite>
        var c: intercom_sqlite { table.pointee }
    }

    private static let loaded: Result<Functions, DynamicLibraryError> = open(INTERCOM_SQLITE_SONAME)

    /// The library's functions, or why it could not be loaded (one line naming the package).
    static func load() -> Result<Functions, DynamicLibraryError> { loaded }

    /// Loads `soname`: `load()` uses it once; tests name a library that is not there.
    static func open(_ soname: String) -> Result<Functions, DynamicLibraryError> {
        DynamicLibrary.table { intercom_sqlite_open(soname, $0, $1, $2) }
            .map(Functions.init)
            .mapError { DynamicLibraryError(purpose: "The journal", library: soname, package: "libsqlite3-0", reason: $0) }
    }
}
