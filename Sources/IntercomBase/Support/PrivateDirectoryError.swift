import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a private directory could not be made or used; one line with what to do.
public enum PrivateDirectoryError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotCreate(String, Int32)
    /// A symlink, a file or anything else in place of the directory.
    case notADirectory(String)
    case wrongOwner(String, owner: UInt32, uid: UInt32)
    case tooOpen(String, mode: mode_t)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let code):
            "cannot create private directory \(path): \(String(cString: strerror(code)))"
        case .notADirectory(let path):
            "\(path) is not a plain directory (a symlink or a file?); refusing to use it: remove it, or set XDG_RUNTIME_DIR"
        case .wrongOwner(let path, let owner, let uid):
            "\(path) belongs to uid \(owner), not to us (uid \(uid)); refusing to use it: remove it, or set XDG_RUNTIME_DIR"
        case .tooOpen(let path, let mode):
            "\(path) has mode \(String(mode, radix: 8)), open to other users; refusing to use it: chmod 700 it, or set XDG_RUNTIME_DIR"
        }
    }

    public var exitCode: Int32 { 1 }
}
