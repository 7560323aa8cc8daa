import CMosquitto

/// `mosquitto_lib_init` once per process: it is not thread-safe, and a `static let` runs its
/// initialiser exactly once whichever thread gets there first.
enum MosquittoLibrary {
    private static let initialised: Bool = {
        mosquitto_lib_init()
        return true
    }()

    static func initialise() { _ = initialised }
}
