internal import CChafa
import IntercomBase

/// libchafa (and, as its dependency, glib), loaded (dlopen) when the first canvas is made: commands
/// that draw no picture never map them (DynamicLibrary says why that matters).
enum ChafaLibrary {
    /// The library's functions, or why it could not be loaded (one line naming the package).
    static let loaded = open()

    /// `loaded` uses it once; tests name a library that is not there.
    static func open(_ soname: String = INTERCOM_CHAFA_SONAME) -> Result<DynamicLibrary.Table<intercom_chafa>, DynamicLibraryError> {
        DynamicLibrary.load(.init(soname: soname, purpose: "Pictures drawn with symbols or sixels", package: "libchafa0"),
                            intercom_chafa_open)
    }
}
