import Foundation
import IntercomBase

/// The config `intercom setup` writes holds panel passwords: it is created 0600 by open(2) itself
/// (O_CREAT|O_EXCL with the mode, so no moment exists when it is wider, whatever the umask),
/// filled, fsynced and renamed over the old one.
enum SetupConfigFile {
    struct WriteError: Error, CustomStringConvertible {
        var description: String
    }

    static func write(_ text: String, to path: String) throws(WriteError) {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw WriteError(description: "cannot create \(folder): \(error.localizedDescription)")
        }
        let temporary = "\(path).setup-\(getpid())"
        let fd = try create(temporary)
        let bytes = Array(text.utf8)
        var offset = 0
        var failure: Int32 = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { failure = n < 0 ? errno : EIO; break }
            offset += n
        }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        close(fd)
        guard failure == 0 else {
            unlink(temporary)
            throw WriteError(description: "cannot write \(temporary): \(String(cString: strerror(failure)))")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(description: "cannot rename \(temporary) to \(path): \(reason)")
        }
    }

    /// A new file, 0600 from its first byte (never an existing one, never through a link); its
    /// descriptor, open for writing.
    static func create(_ path: String) throws(WriteError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
        guard fd >= 0 else {
            throw WriteError(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        return fd
    }
}
