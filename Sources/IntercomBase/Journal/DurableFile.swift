import Foundation

/// Writes a file so that after a power cut it is either absent or whole: the bytes go to a
/// hidden temporary file beside it, are fsynced, renamed over the final name, and the directory
/// is fsynced so the rename itself is on disk. Without the first fsync, ext4 and others may
/// commit the rename before the data and leave an empty picture behind.
///
/// Each write has a temporary file of its own (a random name, created with O_EXCL): two writers of
/// the same file (a `login` and an `open` noting the server's time in the token file) never write
/// into one temporary file, and one left by a crash never stands in the way of the next write.
public enum DurableFile {
    /// Suffix of the temporary files; anything ending so in the journal's pictures folder at
    /// start is left from a write that a crash cut short.
    public static let temporarySuffix = ".tmp"

    /// The start of `path`'s temporary names: `.NAME.` in the same directory, so the rename stays on
    /// one file system and the half-written file is hidden from `ls`. A random part and
    /// `temporarySuffix` follow.
    public static func temporaryPrefix(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + "."
    }

    /// Writes `data` to `path` (mode 0600: pictures of whoever rang are personal data).
    public static func write(_ data: Data, to path: String) throws(JournalError) {
        let (fd, temporary) = try createTemporary(for: path)
        var failure = data.withUnsafeBytes { WriteAll.write($0, to: fd) }.map { String(cString: strerror($0)) }
        if failure == nil, fsync(fd) != 0 { failure = errorText() }
        if close(fd) != 0, failure == nil { failure = errorText() }
        if let failure {
            unlink(temporary)
            throw .io("cannot write \(temporary): \(failure)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = errorText()
            unlink(temporary)
            throw .io("cannot rename \(temporary): \(reason)")
        }
        syncDirectory(of: path)
    }

    /// A new temporary file for `path`, open for writing. O_EXCL never opens a file that is
    /// already there, nor a link planted at the name; a name taken (a crash's leftover, a planted
    /// link, another writer's) is passed over for the next random one.
    private static func createTemporary(for path: String) throws(JournalError) -> (fd: Int32, path: String) {
        let prefix = temporaryPrefix(for: path)
        var temporary = prefix
        for _ in 0..<8 {
            temporary = prefix + String(UInt64.random(in: 0...UInt64.max), radix: 16) + temporarySuffix
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd >= 0 { return (fd, temporary) }
            guard errno == EEXIST else { break }
        }
        throw .io("cannot write \(temporary): \(errorText())")
    }

    /// Makes the directory entry of a rename durable. Best effort: the picture itself is already
    /// whole, and some file systems refuse fsync on a directory.
    static func syncDirectory(of path: String) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Removes `.*.tmp` files in `directory` (left by a process killed mid-write); returns how many.
    /// Only the journal's writer may call this: another writer's temp file would be in use.
    @discardableResult
    public static func removeTemporaries(in directory: String) -> Int {
        removeTemporaries(in: directory) { $0.hasPrefix(".") }
    }

    /// Removes the temporary files of `path` alone; only for a caller that holds the one lock
    /// every writer of `path` takes (`FileLock`), so none of them is in use.
    @discardableResult
    public static func removeTemporaries(of path: String) -> Int {
        let url = URL(fileURLWithPath: path)
        let start = "." + url.lastPathComponent + "."
        return removeTemporaries(in: url.deletingLastPathComponent().path) { $0.hasPrefix(start) }
    }

    private static func removeTemporaries(in directory: String, where matches: (String) -> Bool) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for name in names where matches(name) && name.hasSuffix(temporarySuffix) {
            if unlink(directory + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
