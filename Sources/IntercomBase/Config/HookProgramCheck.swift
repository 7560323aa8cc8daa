import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether each `[hooks] on_EVENT` program can run: it exists, is a file, and this user may
/// execute it. A missing hook is not a load error (the daemon runs, and logs each failed hook),
/// but `config --check` and `doctor` say so before the event that needs it.
public enum HookProgramCheck {
    /// One line per hook that will not run, in event order; empty when all can.
    public static func problems(_ hooks: [String: String]) -> [String] {
        hooks.sorted { $0.key < $1.key }.compactMap { event, program in
            problem(program).map { "[hooks] on_\(event) = \(program): \($0)" }
        }
    }

    static func problem(_ program: String) -> String? {
        var info = stat()
        guard stat(program, &info) == 0 else {
            return errno == ENOENT ? "no such file; install it or remove the line" : "cannot be read: \(String(cString: strerror(errno)))"
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return "not a file; name the program itself" }
        guard access(program, X_OK) == 0 else { return "not executable; run 'chmod +x \(program)'" }
        return nil
    }
}
