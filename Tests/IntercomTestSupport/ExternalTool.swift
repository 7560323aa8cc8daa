import Foundation

/// Finds the external programs the real-peer tests drive (sipp, linphonec, kamailio, tmux, ...).
/// A missing tool throws `HarnessError.toolMissing`, which fails the test and says to run `make test`.
package enum ExternalTool {
    /// Absolute path of `name`, searched in `PATH` plus the sbin directories (kamailio lives in /usr/sbin).
    package static func path(_ name: String) throws -> String {
        if name.contains("/") {
            guard FileManager.default.isExecutableFile(atPath: name) else { throw HarnessError.toolMissing(name) }
            return name
        }
        let pathVar = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let dirs = pathVar.split(separator: ":").map(String.init) + ["/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/bin", "/bin"]
        for dir in dirs where !dir.isEmpty {
            let candidate = dir + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw HarnessError.toolMissing(name)
    }

    /// Throws `toolMissing` unless the file (e.g. a bundled pcap) exists.
    package static func requireFile(_ path: String, package: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw HarnessError("required test file \(path) (package `\(package)`) is missing; run `make test`")
        }
    }
}
