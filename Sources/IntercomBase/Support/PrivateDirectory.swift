import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A directory at a fixed, shared-space path (the `/tmp/intercom-UID` fallback used when neither
/// XDG_RUNTIME_DIR nor HOME is set) that must be ours alone before we put a socket or liblinphone's
/// files (with its plugin folder) in it. Anyone can create `/tmp/intercom-1000` before user 1000
/// does; so an existing one is used only when it is a real directory (not a symlink), owned by
/// our uid, with no access for group or others.
public enum PrivateDirectory {
    /// When `path` lies in the `/tmp/intercom-UID` fallback (`XDGDirectories.fallback`), ensures
    /// the fallback is ours alone; any other path is the user's own choice and left as it is.
    public static func ensureIfFallback(_ path: String, uid: UInt32 = getuid()) throws(PrivateDirectoryError) {
        let fallback = XDGDirectories.fallback(uid: uid)
        guard path == fallback || path.hasPrefix(fallback + "/") else { return }
        try ensure(fallback, uid: uid)
    }

    /// Creates `path` 0700 (parents as needed) or checks the one there.
    public static func ensure(_ path: String, uid: UInt32 = getuid()) throws(PrivateDirectoryError) {
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else { throw .cannotCreate(path, errno) }
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty && parent != path {
                do {
                    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
                } catch {
                    throw .cannotCreate(parent, EACCES)
                }
            }
            // mkdir refuses a path that appeared meanwhile, so what we check below is ours.
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw .cannotCreate(path, errno) }
            guard lstat(path, &info) == 0 else { throw .cannotCreate(path, errno) }
        }
        try check(path, info, uid: uid)
    }

    /// The refusal for what `lstat` found at `path`, if any.
    static func check(_ path: String, _ info: stat, uid: UInt32) throws(PrivateDirectoryError) {
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path) }
        guard info.st_uid == uid else { throw .wrongOwner(path, owner: info.st_uid, uid: uid) }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else { throw .tooOpen(path, mode: mode) }
    }
}
