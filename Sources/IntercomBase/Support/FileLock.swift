import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on a lock file, held while `body` runs: one read-change-write of a state
/// file at a time, across processes (`login` and `open` are separate commands) and across threads of
/// one process (each hold opens the file anew, and flock locks belong to the open file, so two
/// holds in one process exclude each other too). The kernel drops the lock when the holder dies,
/// so `kill -9` leaves no stale lock. The lock file stays: removing it would let a second writer
/// lock a new file while the first still holds the old one.
public enum FileLock {
    /// Runs `body` under the lock of `path` (made 0600 if missing). A lock that cannot be taken is
    /// `failure`'s error, with the reason in one line.
    public static func hold<T, E: Error>(_ path: String, failure: (String) -> E,
                                         _ body: () throws(E) -> T) throws(E) -> T {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw failure("cannot open the lock file \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        // A lock file someone else made could be held by them for ever.
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid() else {
            throw failure("the lock file \(path) is not a plain file of ours; remove it")
        }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("cannot lock \(path): \(String(cString: strerror(errno)))") }
        }
        return try body()
    }
}
