internal import CTurboJPEG
import IntercomBase

/// libturbojpeg, loaded (dlopen) the first time a JPEG is read or written: commands that handle
/// none never map it (DynamicLibrary says why that matters).
enum TurboJPEGLibrary {
    /// The library's functions, or why it could not be loaded (one line naming the package).
    static let loaded = open()

    /// `loaded` uses it once; tests name a library that is not there.
    static func open(_ soname: String = INTERCOM_TURBOJPEG_SONAME) -> Result<DynamicLibrary.Table<intercom_turbojpeg>, DynamicLibraryError> {
        DynamicLibrary.load(.init(soname: soname, purpose: "Pictures (JPEG)", package: "libturbojpeg0"), intercom_turbojpeg_open)
    }
}
