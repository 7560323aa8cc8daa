import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds, reads, checks and decodes `config.ini`.
public enum ConfigLoader {
    /// `--config` > `INTERCOM_CONFIG` > `$XDG_CONFIG_HOME/intercom/config.ini` >
    /// `$HOME/.config/intercom/config.ini`. Empty variables count as unset, as
    /// the XDG spec asks, and a relative XDG_CONFIG_HOME is ignored for the same reason.
    public static func resolvePath(explicit: String?, environment: [String: String]) -> ConfigLocation {
        if let explicit, !explicit.isEmpty {
            return ConfigLocation(path: explicit, source: .flag)
        }
        let directories = XDGDirectories(environment: environment)
        let home = directories.home
        if let fromEnvironment = environment["INTERCOM_CONFIG"], !fromEnvironment.isEmpty {
            var path = fromEnvironment
            // Quoted in a unit file or systemd environment the shell never saw it.
            if let home, path == "~" || path.hasPrefix("~/") { path = home + path.dropFirst() }
            return ConfigLocation(path: path, source: .environment)
        }
        if let configHome = directories.configHome {
            let fromVariable = environment["XDG_CONFIG_HOME"].map { $0.hasPrefix("/") } ?? false
            return ConfigLocation(path: configHome + "/intercom/config.ini", source: fromVariable ? .xdgConfigHome : .home)
        }
        return ConfigLocation(path: nil, source: .none)
    }

    /// `timeZone` reads local times (`guest_until`); nil: the process's, looked up only if a value needs it
    /// (TimeZone.current asks ICU, a millisecond of a light command's start).
    public static func load(explicit: String?, environment: [String: String],
                            timeZone: TimeZone? = nil) throws(ConfigError) -> LoadedConfig {
        let location = resolvePath(explicit: explicit, environment: environment)
        guard let path = location.path else {
            return LoadedConfig(config: .defaults(environment: environment), location: location)
        }
        guard let file = try readFile(path, location: location) else {
            return LoadedConfig(config: .defaults(environment: environment), location: location)
        }
        let (document, loaded) = try decode(text: file.text, path: path, environment: environment,
                                            timeZone: timeZone)
        try checkPermissions(mode: file.mode, document: document, path: path)
        try TLSFileCheck.check(loaded.config.sip.tls, document: document, file: path)
        try MQTTCAFileCheck.check(loaded.config.mqtt, document: document, file: path)
        try SitePasswordFile.check(loaded.config.site, document: document, file: path)
        return LoadedConfig(config: loaded.config, warnings: loaded.warnings, location: location)
    }

    /// Parses config text without touching the file system (no permission rule).
    public static func parse(text: String, path: String? = nil, environment: [String: String] = [:],
                             timeZone: TimeZone? = nil) throws(ConfigError) -> LoadedConfig {
        try decode(text: text, path: path, environment: environment, timeZone: timeZone).1
    }

    /// ssh's rule for private keys: a secret in a file others can read is
    /// already leaked, so refuse instead of warning. Only the permission bits
    /// are checked; the file owner is left to `intercom doctor`.
    static func checkPermissions(mode: UInt32, document: INIDocument, path: String) throws(ConfigError) {
        guard mode & 0o077 != 0 else { return }
        let secret = document.sections
            .filter { $0.kind == "sip" || $0.kind == "panel" }
            .flatMap { section in section.entries.map { (section, $0) } }
            .first { $0.1.key == "password" && !$0.1.value.isEmpty }
        guard let (section, entry) = secret else { return }
        let octal = String(mode & 0o777, radix: 8)
        // Quote only when needed, so the common case reads exactly like the command to type.
        let safe = path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+~@%,:".contains($0) }
        let shownPath = safe ? path : "\"" + path + "\""
        throw ConfigError(file: path, line: entry.line, key: entry.key, section: section.label,
                          message: "the file holds a password but is readable by others (mode \(octal))",
                          fix: "run 'chmod 600 \(shownPath)'")
    }

    private static func decode(text: String, path: String?, environment: [String: String],
                               timeZone: TimeZone?) throws(ConfigError) -> (INIDocument, LoadedConfig) {
        let shownName = path ?? "<config>"
        let document = try INIParser(file: shownName).parse(text)
        var decoder = ConfigDecoder(file: shownName, environment: environment, timeZone: timeZone)
        let config = try decoder.decode(document, path: path)
        try MQTTNameCheck.check(config, document: document, file: shownName)
        return (document, LoadedConfig(config: config, warnings: decoder.warnings))
    }

    /// Reads through one descriptor so the mode checked is the mode of the
    /// bytes read. Returns nil for a missing default file.
    private static func readFile(_ path: String,
                                 location: ConfigLocation) throws(ConfigError) -> (text: String, mode: UInt32)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT && !location.isExplicit { return nil }
            let how = location.source == .environment ? "named by INTERCOM_CONFIG" : "named by --config"
            if code == ENOENT {
                throw ConfigError(file: path, message: "config file not found (\(how))",
                                  fix: "check the path, or create one with 'intercom config --example > \(path)'")
            }
            throw ConfigError(file: path, message: "cannot open config file: \(String(cString: strerror(code)))",
                              fix: "check the file and its permissions")
        }
        defer { close(descriptor) }

        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw ConfigError(file: path, message: "cannot stat config file: \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw ConfigError(file: path, message: "config path is not a regular file",
                              fix: "point --config at a config.ini file")
        }

        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw ConfigError(file: path, message: "cannot read config file: \(String(cString: strerror(errno)))")
            }
            bytes.append(contentsOf: buffer[0..<count])
            // A config is a few kilobytes; a huge file is a wrong path, not a config.
            guard bytes.count <= 1 << 20 else {
                throw ConfigError(file: path, message: "config file is larger than 1 MB",
                                  fix: "check that --config names the right file")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(file: path, message: "config file is not valid UTF-8",
                              fix: "save it as UTF-8 text")
        }
        return (text, UInt32(info.st_mode))
    }
}
