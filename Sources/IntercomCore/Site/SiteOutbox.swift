import Foundation
import IntercomBase

/// What a desk writes for its site, kept in order in a file of the state folder
/// (`site-outbox.jsonl`, 0600, fsynced by `DurableFile`) until the store took it, so neither an
/// outage nor a restart during one loses it. `SiteLink` keeps each write here before it tries it
/// and sends the outbox oldest first, dropping each write once the store took it.
public struct SiteOutbox: Sendable {
    /// Nil: kept in memory only (tests, a desk without a state folder).
    public let path: String?
    public private(set) var pending: [SiteWrite]

    public static func path(stateDirectory: String) -> String { stateDirectory + "/site-outbox.jsonl" }

    /// Opens the outbox at `path`, with what a previous run left in it. A line that cannot be read
    /// back (a file from a newer version) is kept aside in `unreadable` for the log, not sent.
    public init(path: String?) throws(JournalError) {
        self.path = path
        pending = []
        guard let path, FileManager.default.fileExists(atPath: path) else { return }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .io("cannot read the site outbox \(path)")
        }
        for line in text.split(separator: "\n") {
            if let write = JSONValue.parse(String(line)).flatMap(SiteWrite.init(json:)) {
                pending.append(write)
            } else {
                unreadable += 1
            }
        }
    }

    /// Lines of the file that were not a write this version knows.
    public private(set) var unreadable = 0

    public var isEmpty: Bool { pending.isEmpty }

    /// Keeps `write` after the others: one line appended and fsynced (an outage of a thousand
    /// writes is a thousand short appends, not a thousand rewrites). A line a power cut left half
    /// written is counted in `unreadable` when the outbox is opened, and the rest is read.
    public mutating func keep(_ write: SiteWrite) throws(JournalError) {
        pending.append(write)
        guard let path else { return }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .io("cannot open the site outbox \(path): \(String(cString: strerror(errno)))") }
        // Starting on a line of its own, whatever a crash left at the end.
        let bytes = Array(("\n" + write.json.encoded + "\n").utf8)
        var failure = bytes.withUnsafeBytes { WriteAll.write($0, to: fd) }
        if failure == nil, fsync(fd) != 0 { failure = errno }
        close(fd)
        if let failure { throw .io("cannot write the site outbox \(path): \(String(cString: strerror(failure)))") }
    }

    /// Drops the first `count` writes: the store has them.
    public mutating func drop(_ count: Int) throws(JournalError) {
        forget(count)
        try save()
    }

    /// Drops the first `count` writes in memory only: a replay saves once at its end, not once a
    /// write (a crash before then sends some again, which adds nothing twice).
    mutating func forget(_ count: Int) {
        pending.removeFirst(min(count, pending.count))
    }

    /// Writes the file as the outbox is now (none when it is empty).
    func save() throws(JournalError) {
        guard let path else { return }
        if pending.isEmpty {
            guard unlink(path) == 0 || errno == ENOENT else { throw .io("cannot remove the site outbox \(path)") }
            return
        }
        let text = pending.map { $0.json.encoded + "\n" }.joined()
        try DurableFile.write(Data(text.utf8), to: path)
    }
}
