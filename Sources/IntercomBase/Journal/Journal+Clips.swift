import Foundation

/// Video clips beside the pictures (`[panel] record`): the files are named when recording
/// starts and the entry names them at once, so a clip cut short by a crash stays with its
/// (interrupted) entry, counts in the size cap and goes with it.
extension Journal {
    /// The columns clips add to `entries` (migrated in by `init`).
    static let clipColumns = ["clip", "ring_clip"]
    /// Every column that names a file of the entry, for retention and the size count.
    static let fileColumns = "first_picture, answer_picture, clip, ring_clip"
    /// Matroska: both recorders write it (liblinphone's picks its recorder by the extension, and
    /// its `.mkv` one keeps video), and a file cut short still plays up to the cut.
    public static let clipExtension = "mkv"

    public enum ClipSlot: String, Sendable { case call = "clip", ring = "ring_clip" }

    /// A new clip's path in the pictures folder. The name carries 64 random bits: no other user
    /// (the folder is 0700 anyway) nor a second recording can guess or take it. With `create`, the
    /// file is created empty (mode 0600, never over an existing name or a planted link); without,
    /// the name is only checked free: liblinphone's Matroska recorder appends to a file that
    /// exists, and refuses an empty one, so it must create the file itself (the caller makes it
    /// 0600 once it is there).
    public static func newClipFile(in folder: String, slot: ClipSlot, at time: Date = Date(),
                                   create: Bool = true) throws(JournalError) -> String {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4 {
            let random = String(generator.next() as UInt64, radix: 16)
            let path = "\(folder)/\(LocalTime(time).fileStamp)-\(slot == .call ? "call" : "ring")-\(random).\(clipExtension)"
            if !create {
                var info = stat()
                if lstat(path, &info) == 0 { continue }
                return path
            }
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd >= 0 {
                close(fd)
                return path
            }
            guard errno == EEXIST else { break }
        }
        throw .io("cannot create a clip in \(folder): \(String(cString: strerror(errno)))")
    }

    /// Names `path` as the entry's clip (nil forgets it).
    public func setClip(_ path: String?, row: Int64, slot: ClipSlot) throws(JournalError) {
        _ = try run("UPDATE entries SET \(slot.rawValue) = ? WHERE id = ?", [.optional(path), .integer(row)])
    }

    /// Clip files in the pictures folder that no entry names: recordings whose entry was never
    /// written (a crash between naming and recording, another process's answer). The writer
    /// removes them at start, as it removes half-written pictures; returns how many.
    @discardableResult
    public func removeOrphanedClips() throws(JournalError) -> Int {
        let named = Set(try run("SELECT clip, ring_clip FROM entries WHERE clip IS NOT NULL OR ring_clip IS NOT NULL")
                            .flatMap { $0.compactMap(\.text) })
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: picturesDirectory) else { return 0 }
        var removed = 0
        for name in names where name.hasSuffix("." + Self.clipExtension) {
            let path = picturesDirectory + "/" + name
            if !named.contains(path), unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// An entry's clip of `slot`, or nil (unknown row or no clip).
    public func clip(row: Int64, slot: ClipSlot) throws(JournalError) -> String? {
        try run("SELECT \(slot.rawValue) FROM entries WHERE id = ?", [.integer(row)]).first?.first?.text
    }
}
