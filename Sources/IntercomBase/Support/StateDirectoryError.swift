import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why the state folder (`StateDirectory`) cannot be used: one line naming the folder, the cause
/// and the fix. Unlike `PrivateDirectoryError` (the shared-/tmp fallback), the way out is never
/// XDG_RUNTIME_DIR: the folder is chosen by XDG_STATE_HOME.
public struct StateDirectoryError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// mkdir failed (a parent not ours, a read-only home).
        case cannotCreate(Int32)
        /// A symlink, a file or anything else in place of the folder.
        case notADirectory
        case wrongOwner(owner: UInt32, uid: UInt32)
        /// Our folder, open to others, that chmod could not close.
        case cannotTighten(mode: mode_t, Int32)
        /// The folder is there and ours, but we may not write in it.
        case cannotWrite(Int32)
        /// Writing a file in it failed (the disk is full…): the writer's own text.
        case cannotSave(file: String, detail: String)
    }

    public var path: String
    public var reason: Reason

    public init(_ path: String, _ reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .cannotCreate(let code):
            "cannot make the state folder \(path): \(Self.text(code))\(hint(code))"
        case .notADirectory:
            "the state folder \(path) is a symlink or a file, not a folder; refusing to use it: "
                + "move it away (intercom makes the folder again, 0700), or set XDG_STATE_HOME"
        case .wrongOwner(let owner, let uid):
            "the state folder \(path) belongs to uid \(owner), not to us (uid \(uid)); refusing to use it: "
                + "remove it, or set XDG_STATE_HOME to a folder of yours"
        case .cannotTighten(let mode, let code):
            "the state folder \(path) has mode \(String(mode, radix: 8)), open to other users, and cannot be "
                + "tightened: \(Self.text(code)); run 'chmod 700 \(path)'"
        case .cannotWrite(let code):
            "cannot write in the state folder \(path): \(Self.text(code))\(hint(code))"
        case .cannotSave(let file, let detail):
            "cannot save \(file): \(detail)"
        }
    }

    /// What to do about an errno of mkdir or access.
    private func hint(_ code: Int32) -> String {
        switch code {
        case EROFS:
            "; it is read-only here: under systemd the unit's ReadWritePaths= must name it "
                + "(contrib/systemd/intercom.service names %h/.local/state/intercom)"
        case EACCES, EPERM:
            "; check who owns it and its parent ('ls -ld \(path)'), or set XDG_STATE_HOME"
        case ENOSPC, EDQUOT:
            "; free some space"
        default:
            ""
        }
    }

    private static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}
