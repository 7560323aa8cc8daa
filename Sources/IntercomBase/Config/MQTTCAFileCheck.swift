import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `[mqtt] ca_file` must be a readable file holding a PEM certificate. libmosquitto only learns
/// otherwise at connect time, and its answer to an unreadable file is to leave TLS off (the
/// password then goes out in clear), so the config refuses it at load (`config --check`, `doctor`,
/// the daemon's start) and the MQTT client checks again before every connect.
public enum MQTTCAFileCheck {
    /// What is wrong with the file (`cannot read it (No such file or directory)`), and the fix; nil when usable.
    public static func problem(_ path: String) -> (message: String, fix: String)? {
        // A service with PrivateTmp=yes (the shipped unit) has its own /tmp: a file there that a
        // shell sees is missing in the service.
        let tmpHint = path.hasPrefix("/tmp/") || path.hasPrefix("/var/tmp/")
            ? " (a service with PrivateTmp=yes, as the shipped unit, has its own /tmp: keep it elsewhere)" : ""
        var info = stat()
        guard stat(path, &info) == 0 else {
            return ("cannot read it (\(String(cString: strerror(errno))))", "check the path" + tmpHint)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return ("is not a file", "name the CA certificate file (PEM)")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return ("cannot read it (\(String(cString: strerror(errno))))", "check its owner and permissions")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard let head = try? handle.read(upToCount: 1 << 20) else {
            return ("cannot read it (\(String(cString: strerror(errno))))", "check the file")
        }
        guard String(decoding: head, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            return ("holds no PEM certificate", "give the broker's CA certificate in PEM (-----BEGIN CERTIFICATE-----)")
        }
        return nil
    }

    /// The config-load check (for `mqtts://`, where the file is used): a `ConfigError` naming the key's line.
    static func check(_ mqtt: MQTTSettings?, document: INIDocument, file: String) throws(ConfigError) {
        guard let mqtt, mqtt.tls, let path = mqtt.caFile, let problem = problem(path) else { return }
        let entry = document.sections.last { $0.kind == "mqtt" }?.entries.last { $0.key == "ca_file" }
        throw ConfigError(file: file, line: entry?.line, key: "ca_file", section: "[mqtt]",
                          message: "\(path): \(problem.message)", fix: problem.fix)
    }
}
