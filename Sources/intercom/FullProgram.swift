import Foundation
import IntercomCLI

/// `intercom-full`, the build of `intercom` that carries the SIP phone, media and terminal UI.
/// It lives beside this launcher; the launcher replaces itself with it (same pid, so systemd's
/// `Type=notify` and signals reach the daemon unchanged).
enum FullProgram {
    static let name = "intercom-full"

    /// The path beside the running executable.
    static func path() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let launcher = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (launcher as NSString).deletingLastPathComponent + "/" + name
    }

    /// Replaces this process with `intercom-full ARGUMENTS`; returns only when that failed, with the exit code.
    static func exec(_ arguments: [String]) -> Int32 {
        guard let path = path() else {
            return Console.fail("cannot find this program's own path (/proc/self/exe); is /proc mounted?",
                                code: ExitCode.failure)
        }
        let argv = (["intercom"] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        return Console.fail("cannot start \(path): \(reason); install \(name) in the same directory as intercom",
                            code: ExitCode.failure)
    }
}
