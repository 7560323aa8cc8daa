import CMosquitto
import IntercomBase

/// libmosquitto, loaded (dlopen) the first time a client is made, and `mosquitto_lib_init` run
/// once then (it is not thread-safe; a `static let` runs its initialiser exactly once whichever
/// thread gets there first). A daemon without `[mqtt]` never maps the library.
enum MosquittoLibrary {
    /// The loaded table; C function pointers, immutable once filled.
    typealias Functions = DynamicLibrary.Table<intercom_mosquitto>

    /// The library's functions, or why it could not be loaded (one line naming the package).
    static let loaded: Result<Functions, DynamicLibraryError> = {
        let result = open()
        if case .success(let functions) = result { _ = functions.c.lib_init() }
        return result
    }()

    /// Loads `soname` without keeping it as the process's library: `loaded` uses it once; tests
    /// name a library that is not there.
    static func open(_ soname: String = INTERCOM_MOSQUITTO_SONAME) -> Result<Functions, DynamicLibraryError> {
        DynamicLibrary.load(.init(soname: soname, purpose: "MQTT", package: "libmosquitto1"), intercom_mosquitto_open)
    }
}
