import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory only we can enter, made by mkdtemp (0700, a name nobody can guess or
/// pre-create), for work files of one run: `intercom doctor`'s and `intercom demo`'s phones, the
/// simulated panel's. A phone's work directory holds the mediastreamer plugin folder, and
/// mediastreamer loads every libms*.so it finds there: a predictable `/tmp/intercom-demo-PID`
/// that another local user made first would run their code as us.
public struct PrivateTemporaryDirectory: Sendable {
    public let path: String

    /// Makes `$TMPDIR/PREFIX.XXXXXX` (else under /tmp).
    public static func make(prefix: String) throws(PrivateDirectoryError) -> PrivateTemporaryDirectory {
        var base = NSTemporaryDirectory()
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        let template = "\(base)/\(prefix).XXXXXX"
        var buffer = Array(template.utf8CString)
        let made = buffer.withUnsafeMutableBufferPointer { pointer -> String? in
            guard let start = pointer.baseAddress, let result = mkdtemp(start) else { return nil }
            return String(cString: result)
        }
        guard let made else { throw .cannotCreate(template, errno) }
        return PrivateTemporaryDirectory(path: made)
    }

    /// Removes the directory and everything in it; called once the run ends.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
