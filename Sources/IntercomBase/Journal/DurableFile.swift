import Foundation

/// Writes a file so that after a power cut it is either absent or whole: the bytes go to a
/// hidden temporary name beside it, are fsynced, renamed over the final name, and the directory
/// is fsynced so the rename itself is on disk. Without the first fsync, ext4 and others may
/// commit the rename before the data and leave an empty picture behind.
public enum DurableFile {
    /// Suffix of the temporary files; anything ending so in the journal's pictures folder at
    /// start is left from a write that a crash cut short.
    public static let temporarySuffix = ".tmp"

    /// The temporary name of `path`: `.NAME.tmp` in the same directory, so the rename stays on
    /// one file system and the half-written file is hidden from `ls`.
    public static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + temporarySuffix
    }

    /// Writes `data` to `path` (mode 0600: pictures of whoever rang are personal data).
    public static func write(_ data: Data, to path: String) throws(JournalError) {
        let temporary = temporaryPath(for: path)
        // O_EXCL would refuse a temp file left by a crash; O_NOFOLLOW refuses a planted link.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .io("cannot write \(temporary): \(errorText())") }
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
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(".") && name.hasSuffix(temporarySuffix) {
            if unlink(directory + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
