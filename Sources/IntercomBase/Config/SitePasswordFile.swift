import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `[site] password_file`: the store's password lives in its own file, never in the config. It must be
/// a regular file of this user's, readable by no one else (0600 or 0400): a password others can read is
/// already leaked. Checked when the config is loaded (a config error) and again before every connect.
public enum SitePasswordFile {
    /// What is wrong with the file, and the fix; nil when usable.
    public static func problem(_ path: String) -> (message: String, fix: String)? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return ("cannot read \(path) (\(String(cString: strerror(errno))))", "check the path")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return ("\(path) is not a regular file", "name a file holding the password (not a link or folder)")
        }
        guard info.st_uid == geteuid() else {
            return ("\(path) belongs to uid \(info.st_uid), not to this user (uid \(geteuid()))",
                    "run 'chown \(geteuid()) \(path)' or keep the password in a file of this user's")
        }
        guard info.st_mode & 0o077 == 0 else {
            return ("\(path) is readable by others (mode \(String(info.st_mode & 0o777, radix: 8)))", "run 'chmod 600 \(path)'")
        }
        return nil
    }

    /// The password: the file's first line. Throws the check's problem, or an empty file's.
    public static func read(_ path: String) throws(ConfigValueError) -> String {
        if let problem = problem(path) { throw ConfigValueError(problem.message, fix: problem.fix) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigValueError("cannot read \(path) (\(String(cString: strerror(errno))))", fix: "check its permissions")
        }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        guard !password.isEmpty else {
            throw ConfigValueError("\(path) is empty", fix: "write the role's password on its first line")
        }
        return password
    }

    /// The config-load check: a `ConfigError` naming the key's line.
    static func check(_ site: SiteConfig?, document: INIDocument, file: String) throws(ConfigError) {
        guard let path = site?.passwordFile, let problem = problem(path) else { return }
        let entry = document.sections.last { $0.kind == "site" }?.entries.last { $0.key == "password_file" }
        throw ConfigError(file: file, line: entry?.line, key: "password_file", section: "[site]",
                          message: problem.message, fix: problem.fix)
    }
}
