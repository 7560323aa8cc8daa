import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Checks the files `[sip] tls_cert`, `tls_key` and `tls_ca` name when the config loads, so a
/// wrong path is one config error (exit 65) instead of a registration that fails later with
/// liblinphone's "io error". Runs only for configs read from disk (`ConfigLoader.load`).
enum TLSFileCheck {
    enum Kind {
        case certificate, key, authorities

        var pemMarker: String {
            switch self {
            case .certificate, .authorities: "CERTIFICATE-----"
            case .key: "PRIVATE KEY-----"
            }
        }

        var what: String {
            switch self {
            case .certificate: "a PEM certificate"
            case .key: "a PEM private key"
            case .authorities: "a PEM CA certificate file or a directory of them"
            }
        }
    }

    static func check(_ tls: SIPTLSSettings, document: INIDocument, file: String) throws(ConfigError) {
        let wanted: [(String, String?, Kind)] = [("tls_cert", tls.certificate, .certificate),
                                                  ("tls_key", tls.key, .key), ("tls_ca", tls.caFile, .authorities)]
        for (key, path, kind) in wanted {
            guard let path else { continue }
            let entry = document.sections.last { $0.kind == "sip" }?.entries.last { $0.key == key }
            if let problem = problem(path: path, kind: kind) {
                throw ConfigError(file: file, line: entry?.line, key: key, section: "[sip]",
                                  message: problem.message, fix: problem.fix)
            }
        }
    }

    /// nil when the file is usable; else what is wrong and how to fix it.
    static func problem(path: String, kind: Kind) -> (message: String, fix: String)? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return ("cannot use \(path): \(String(cString: strerror(errno)))", "check the path")
        }
        if kind == .authorities && info.st_mode & S_IFMT == S_IFDIR { return nil }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return ("\(path) is not a regular file", "name \(kind.what)")
        }
        if kind == .key && info.st_mode & 0o077 != 0 {
            // The same rule as for a config holding a password: a readable key is a leaked key.
            return ("private key \(path) is readable by others (mode \(String(info.st_mode & 0o777, radix: 8)))",
                    "run 'chmod 600 \(path)'")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return ("cannot read \(path): \(String(cString: strerror(errno)))", "check its owner and permissions")
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1 << 20)) ?? Data()
        guard String(decoding: head, as: UTF8.self).contains(kind.pemMarker) else {
            return ("\(path) is not \(kind.what)", "give a PEM file (-----BEGIN …-----)")
        }
        return nil
    }
}
