internal import CChafa
import IntercomBase

/// libchafa (and, as its dependency, glib), loaded (dlopen) when the first canvas is made: commands
/// that draw no picture never map them (DynamicLibrary says why that matters).
enum ChafaLibrary {
    /// C function pointers, immutable once filled.
    struct Functions: @unchecked Sendable {
        let table: UnsafePointer<intercom_chafa>
        var c: intercom_chafa { table.pointee }
    }

    private static let loaded: Result<Functions, DynamicLibraryError> = open(INTERCOM_CHAFA_SONAME)

    /// The library's functions, or why it could not be loaded (one line naming the package).
    static func load() -> Result<Functions, DynamicLibraryError> { loaded }

    /// Loads `soname`: `load()` uses it once; tests name a library that is not there.
    static func open(_ soname: String) -> Result<Functions, DynamicLibraryError> {
        DynamicLibrary.table { intercom_chafa_open(soname, $0, $1, $2) }
            .map(Functions.init)
            .mapError { DynamicLibraryError(purpose: "Pictures drawn with symbols or sixels", library: soname,
                                            package: "libchafa0", reason: $0) }
    }
}
