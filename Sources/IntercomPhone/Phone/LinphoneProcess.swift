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

    /// Points the process's factory at a directory holding only the mediastreamer plugins we use.
    /// Debian's plugin directory also has libmsqogl (an OpenGL display), which drags in Qt5 and
    /// about 15 MB of resident memory for a window we never open. Runs before each core is made.
    static func restrictPlugins(workDirectory: String) {
        guard let system = systemPluginDirectory(),
              let names = try? FileManager.default.contentsOfDirectory(atPath: system) else { return }
        let wanted = names.filter { $0.hasSuffix(".so") && !unwantedPlugins.contains($0) }
        let dir = "\(workDirectory)/msplugins"
        let files = FileManager.default
        try? files.removeItem(atPath: dir)
        guard (try? files.createDirectory(atPath: dir, withIntermediateDirectories: true)) != nil else { return }
        for name in wanted {
            try? files.createSymbolicLink(atPath: "\(dir)/\(name)", withDestinationPath: "\(system)/\(name)")
        }
        linphone_factory_set_msplugins_dir(linphone_factory_get(), dir)
    }

    private static let unwantedPlugins: Set<String> = ["libmsqogl.so"]

    private static func systemPluginDirectory() -> String? {
        var names = utsname()
        uname(&names)
        let machine = withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let candidates = ["/usr/lib/\(machine)-linux-gnu/mediastreamer/plugins", "/usr/lib/mediastreamer/plugins",
                          "/usr/local/lib/mediastreamer/plugins"]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }
}
