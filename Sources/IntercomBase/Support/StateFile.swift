import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a file of the state folder (`switches.json`, `share-expiries.json`) only when it is what
/// intercom itself writes: a plain file, ours, that nobody else may write. Anything else may have
/// been planted (a link, another user's file, one left open to the group) and could switch guest
/// mode on, so it throws `StateFileError` instead of being read. Opened once without following
/// links and checked on the open descriptor, so the file checked is the file read.
public enum StateFile {
    /// The bytes of `path`; nil when there is no file (the first run).
    public static func read(_ path: String, uid: UInt32 = getuid()) throws(StateFileError) -> Data? {
        // O_NONBLOCK: a FIFO planted at the name would block the open for ever.
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw StateFileError(path, .notAPlainFile)
            case let code: throw StateFileError(path, .unreadable(code))
            }
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw StateFileError(path, .unreadable(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw StateFileError(path, .notAPlainFile) }
        guard info.st_uid == uid else { throw StateFileError(path, .foreignOwner(owner: info.st_uid, uid: uid)) }
        let mode = info.st_mode & 0o777
        guard mode & 0o022 == 0 else { throw StateFileError(path, .writableByOthers(mode: mode)) }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw StateFileError(path, .unreadable(EIO))
        }
    }
}

/// Why a state file was not read (`StateFile`), or what it holds cannot be understood: one line
/// naming the file, the cause and the way out.
public struct StateFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// A symlink, a folder, a FIFO… in place of the file.
        case notAPlainFile
        case foreignOwner(owner: UInt32, uid: UInt32)
        /// Group or others may write it.
        case writableByOthers(mode: mode_t)
        /// open or read failed (EACCES, EIO…).
        case unreadable(Int32)
        /// Read, but not what intercom writes there (cut short, edited by hand): what is wrong.
        case damaged(String)
    }

    public var path: String
    public var reason: Reason

    public init(_ path: String, _ reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .notAPlainFile:
            "\(path) is a symlink or not a plain file; remove it"
        case .foreignOwner(let owner, let uid):
            "\(path) belongs to uid \(owner), not to us (uid \(uid)); give it back ('chown \(uid) \(path)') or remove it"
        case .writableByOthers(let mode):
            "\(path) has mode \(String(mode, radix: 8)), writable by other users; run 'chmod 600 \(path)' or remove it"
        case .unreadable(let code):
            "cannot read \(path): \(String(cString: strerror(code))); check its owner and mode ('ls -l \(path)') or remove it"
        case .damaged(let detail):
            "\(path) is damaged (\(detail)); mend it or remove it"
        }
    }
}
