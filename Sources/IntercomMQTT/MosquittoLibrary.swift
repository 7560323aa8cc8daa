import CMosquitto

/// libmosquitto, loaded (dlopen) the first time a client is made, and `mosquitto_lib_init` run
/// once then (it is not thread-safe; a `static let` runs its initialiser exactly once whichever
/// thread gets there first). A daemon without `[mqtt]` never maps the library.
enum MosquittoLibrary {
    /// The loaded table; C function pointers, immutable once filled.
    struct Functions: @unchecked Sendable {
        let c: intercom_mosquitto
    }

    private static let loaded: Result<Functions, MosquittoLoadError> = {
        let result = open(INTERCOM_MOSQUITTO_SONAME)
        if case .success(let functions) = result { _ = functions.c.lib_init() }
        return result
    }()

    /// The library's functions, or why it could not be loaded (one line naming the package).
    static func load() -> Result<Functions, MosquittoLoadError> { loaded }

    /// Loads `soname` without keeping it as the process's library: `load()` uses it once; tests
    /// name a library that is not there.
    static func open(_ soname: String) -> Result<Functions, MosquittoLoadError> {
        let table = UnsafeMutablePointer<intercom_mosquitto>.allocate(capacity: 1)
        defer { table.deallocate() }
        var error = [CChar](repeating: 0, count: 512)
        guard intercom_mosquitto_open(soname, table, &error, error.count) == 0 else {
            return .failure(MosquittoLoadError(reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                                              as: UTF8.self)))
        }
        return .success(Functions(c: table.move()))
    }
}

/// libmosquitto could not be loaded: what failed and the Debian package that brings it.
public struct MosquittoLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    public var description: String {
        "MQTT needs libmosquitto, which could not be loaded (\(reason)): install the Debian package libmosquitto1"
    }
}
