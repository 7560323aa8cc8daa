internal import CSQLite

/// libsqlite3, loaded (dlopen) the first time the process opens the journal: `export`, `open`,
/// `doors` and an attached screen never map it (DynamicLibrary says why that matters).
enum SQLiteLibrary {
    /// The library's functions, or why it could not be loaded (one line naming the package).
    static let loaded = open()

    /// `loaded` uses it once; tests name a library that is not there.
    static func open(_ soname: String = INTERCOM_SQLITE_SONAME) -> Result<DynamicLibrary.Table<intercom_sqlite>, DynamicLibraryError> {
        DynamicLibrary.load(.init(soname: soname, purpose: "The journal", package: "libsqlite3-0"), intercom_sqlite_open)
    }
}
