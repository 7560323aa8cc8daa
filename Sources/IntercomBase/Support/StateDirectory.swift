import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// intercom's private state folder, `$XDG_STATE_HOME/intercom` (else `~/.local/state/intercom`,
/// else the `/tmp/intercom-UID` fallback) and the folders in it: the run-time switches, the
/// operators' tokens, the terminal client's log. Every writer goes through `ensure`, so whichever
/// runs first (`intercom tui`, `login`, the daemon) leaves the folder 0700, and the others accept it.
public enum StateDirectory {
    /// The folder for `environment` (`XDGDirectories.stateDirectory`).
    public static func path(environment: [String: String], uid: UInt32 = getuid()) -> String {
        XDGDirectories(environment: environment, uid: uid).stateDirectory
    }

    /// Makes `path` 0700 (missing parents 0700 too, as the XDG spec asks) or checks the folder
    /// there, and that we can write in it. Our own folder open to group or others (an older
    /// `intercom tui` made it 0755) is tightened to 0700 and `notice` hears so; a symlink, a file or
    /// another user's folder is refused.
    public static func ensure(_ path: String, uid: UInt32 = getuid(),
                              notice: (String) -> Void) throws(StateDirectoryError) {
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else { throw StateDirectoryError(path, .cannotCreate(errno)) }
            try create(path)
            guard lstat(path, &info) == 0 else { throw StateDirectoryError(path, .cannotCreate(errno)) }
        }
        if case .tooOpen(let mode) = try verdict(path, info, uid: uid) {
            try tighten(path, mode: mode, uid: uid)
            notice("\(path) had mode \(String(mode, radix: 8)), open to other users; tightened it to 0700")
        }
        guard access(path, W_OK | X_OK) == 0 else { throw StateDirectoryError(path, .cannotWrite(errno)) }
    }

    /// What `lstat` found, short of tightening: `ready`, or `tooOpen` for our own folder that
    /// group or others may enter; anything else is refused.
    public enum Verdict: Equatable, Sendable {
        case ready
        case tooOpen(mode_t)
    }

    static func verdict(_ path: String, _ info: stat, uid: UInt32) throws(StateDirectoryError) -> Verdict {
        guard info.st_mode & S_IFMT == S_IFDIR else { throw StateDirectoryError(path, .notADirectory) }
        guard info.st_uid == uid else { throw StateDirectoryError(path, .wrongOwner(owner: info.st_uid, uid: uid)) }
        let mode = info.st_mode & 0o777
        return mode & 0o077 == 0 ? .ready : .tooOpen(mode)
    }

    /// What `doctor` reports, changing nothing: the folder's verdict and that we may write in it;
    /// for a folder not made yet, that its nearest existing parent lets us make it (nil = absent).
    public static func inspect(_ path: String, uid: UInt32 = getuid()) throws(StateDirectoryError) -> Verdict? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            guard errno == ENOENT else { throw StateDirectoryError(path, .cannotCreate(errno)) }
            var parent = (path as NSString).deletingLastPathComponent
            while !parent.isEmpty, parent != "/", !FileManager.default.fileExists(atPath: parent) {
                parent = (parent as NSString).deletingLastPathComponent
            }
            guard access(parent, W_OK | X_OK) == 0 else { throw StateDirectoryError(path, .cannotCreate(errno)) }
            return nil
        }
        let verdict = try verdict(path, info, uid: uid)
        guard access(path, W_OK | X_OK) == 0 else { throw StateDirectoryError(path, .cannotWrite(errno)) }
        return verdict
    }

    /// mkdir 0700 from the first missing ancestor down; one that appears meanwhile is checked by the caller.
    private static func create(_ path: String) throws(StateDirectoryError) {
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/", !FileManager.default.fileExists(atPath: current) {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for folder in missing.reversed() {
            if mkdir(folder, 0o700) != 0 && errno != EEXIST { throw StateDirectoryError(path, .cannotCreate(errno)) }
        }
    }

    /// chmod 0700 through a descriptor opened without following links, re-checked as ours, so a
    /// folder swapped for a link between the check and the change is not what gets changed.
    private static func tighten(_ path: String, mode: mode_t, uid: UInt32) throws(StateDirectoryError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw StateDirectoryError(path, .cannotTighten(mode: mode, errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw StateDirectoryError(path, .cannotTighten(mode: mode, errno)) }
        _ = try verdict(path, info, uid: uid)
        guard fchmod(fd, 0o700) == 0 else { throw StateDirectoryError(path, .cannotTighten(mode: mode, errno)) }
    }
}
