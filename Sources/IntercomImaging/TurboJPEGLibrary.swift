internal import CTurboJPEG
import IntercomBase

/// libturbojpeg, loaded (dlopen) the first time a JPEG is read or written: commands that handle
/// none never map it (DynamicLibrary says why that matters).
enum TurboJPEGLibrary {
    /// C function pointers, immutable once filled.
    struct Functions: @unchecked Sendable {
        let table: UnsafePointer<intercom_turbojpeg>
        var c: intercom_turbojpeg { table.pointee }
    }

    private static let loaded: Result<Functions, DynamicLibraryError> = open(INTERCOM_TURBOJPEG_SONAME)

    /// The library's functions, or why it could not be loaded (one line naming the package).
    static func load() -> Result<Functions, DynamicLibraryError> { loaded }

    /// Loads `soname`: `load()` uses it once; tests name a library that is not there.
    static func open(_ soname: String) -> Result<Functions, DynamicLibraryError> {
        DynamicLibrary.table { intercom_turbojpeg_open(soname, $0, $1, $2) }
            .map(Functions.init)
            .mapError { DynamicLibraryError(purpose: "Pictures (JPEG)", library: soname, package: "libturbojpeg0", reason: $0) }
    }
}
