import CLinphone
import Foundation

/// What liblinphone keeps per process rather than per core. These are the only statics in the
/// phone, and they mirror C state that exists once per process whatever we do.
enum LinphoneProcess {
    /// Held while a core is created, started or destroyed: libsrtp's and the factory's global
    /// initialisation is not thread-safe, and two cores starting at once abort the process.
    static let lock = NSLock()

    /// liblinphone logs through one process-wide service, to stdout by default, which would
    /// corrupt `--events json`. Silenced before the first core exists.
    static func silenceLogging() {
        lock.lock()
        defer { lock.unlock() }
        linphone_logging_service_set_log_level(linphone_logging_service_get(), LinphoneLogLevelFatal)
    }
}
