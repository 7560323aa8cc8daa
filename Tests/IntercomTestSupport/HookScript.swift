import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Hook scripts for the tests that run hooks (in process and in the daemon).
package enum HookScript {
    /// Writes an executable script through a close-on-exec descriptor: a descriptor open for
    /// writing that leaks into a child spawned meanwhile by another test makes exec fail ETXTBSY.
    package static func create(_ text: String, named name: String, in directory: TestDirectory) throws -> String {
        let path = directory.path + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw HarnessError("cannot create \(path)") }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return path
    }
}
