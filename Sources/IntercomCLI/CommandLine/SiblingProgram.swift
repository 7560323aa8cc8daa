import Foundation

/// The binaries installed beside the running one (`CommandProgram`): the launcher replaces itself
/// with one (same pid, so systemd's `Type=notify` and signals reach the daemon unchanged), and
/// `intercom demo` starts `intercom-sim` from there.
public enum SiblingProgram {
    /// `program`'s path in the directory of the running executable.
    public static func path(_ program: CommandProgram) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let running = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (running as NSString).deletingLastPathComponent + "/" + program.rawValue
    }

    /// Replaces this process with `program ARGUMENTS`; returns only when that failed, with the exit code.
    public static func exec(_ program: CommandProgram, _ arguments: [String]) -> Int32 {
        guard let path = path(program) else {
            return Console.fail("cannot find this program's own path (/proc/self/exe); is /proc mounted?",
                                code: ExitCode.failure)
        }
        let argv = (["intercom"] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        return Console.fail("cannot start \(path): \(reason); install \(program.rawValue) in the same directory as intercom",
                            code: ExitCode.failure)
    }
}
