import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Who a daemon is, as it tells a screen that attaches (the `attach` reply) and `status` (`daemon`):
/// its pid, version and the config it serves. A screen attaches only to a daemon serving its own
/// config: two configs may share one control socket (the default one), and a screen given
/// `--config desk.ini` must not silently show another config's panels.
public struct DaemonIdentity: Sendable, Equatable {
    public var pid: Int32
    public var version: String
    /// The config file it serves, canonical (`canonicalConfig`); nil: built-in defaults (no file).
    public var config: String?

    public init(pid: Int32, version: String, config: String?) {
        self.pid = pid
        self.version = version
        self.config = config
    }

    /// `{"pid":…,"version":…,"config":…|null}`.
    public var json: JSONValue {
        .object([("pid", .integer(Int(pid))), ("version", .string(version)), ("config", config.map(JSONValue.string) ?? .null)])
    }

    /// The identity in an `attach` reply's data or a status's `daemon`; nil when it holds none
    /// (a daemon older than this field), with `peerPID` standing in for a missing pid.
    public init?(json: JSONValue?, peerPID: Int32) {
        guard let json, case .object = json, let version = json["version"]?.stringValue else { return nil }
        var pid = peerPID
        if case .integer(let number)? = json["pid"], let narrow = Int32(exactly: number) { pid = narrow }
        self.init(pid: pid, version: version, config: json["config"]?.stringValue)
    }

    /// A daemon that answered but did not say who it is (older than this field, or too slow).
    public static func unspoken(pid: Int32) -> DaemonIdentity { DaemonIdentity(pid: pid, version: "", config: nil) }
    public var isUnspoken: Bool { version.isEmpty }

    /// `path` with symlinks, `.` and `..` resolved (realpath), so `desk.ini`, `./desk.ini` and a
    /// link to it name one file; a path that does not resolve (no such file) is only made absolute.
    public static func canonicalConfig(_ path: String?) -> String? {
        guard let path, !path.isEmpty else { return nil }
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (absolute as NSString).standardizingPath
    }

    /// Whether this daemon serves the config at `path` (the screen's, canonical or not).
    public func serves(config path: String?) -> Bool {
        config == Self.canonicalConfig(path)
    }

    /// "pid N, serving PATH" (or "the built-in defaults"), for one-line messages.
    public var serving: String {
        "pid \(pid), serving \(config ?? "the built-in defaults (no config file)")"
    }
}
