import Foundation

/// One recording process per journal: an exclusive `flock` on `journal.lock`, held for the
/// process's life and dropped by the kernel when it dies (so `kill -9` leaves no stale lock).
/// Without it a second intercom (a TUI beside the daemon) would write duplicate rows and mark the
/// first one's calls in progress as interrupted.
public final class JournalWriterLock: Sendable {
    private let fd: Int32

    /// nil when another process records into `directory`.
    public init?(directory: String) throws(JournalError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io("cannot create \(directory): \(error.localizedDescription)")
        }
        let path = directory + "/journal.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io("cannot open \(path): \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
    }

    deinit { close(fd) }
}
