import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real `intercom` binary, as a user runs it.
///
/// Path: `INTERCOM_BIN` (the Makefile sets it), else `<package root>/.build/debug/intercom` found
/// from this file's path. A missing binary fails the test (never a silent skip).
package enum IntercomBinary {
    package static func path() throws -> String {
        let candidate: String
        if let fromEnvironment = ProcessInfo.processInfo.environment["INTERCOM_BIN"], !fromEnvironment.isEmpty {
            candidate = fromEnvironment
        } else {
            // <root>/Tests/IntercomTestSupport/IntercomBinary.swift → <root>
            let root = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            candidate = root.appendingPathComponent(".build/debug/intercom").path
        }
        guard FileManager.default.isExecutableFile(atPath: candidate) else {
            throw HarnessError(
                "the intercom binary is missing at \(candidate); run `make test` "
                    + "(it builds the binary and sets INTERCOM_BIN), or set INTERCOM_BIN to a built intercom")
        }
        return candidate
    }

    /// Environment for a run whose home, XDG dirs and runtime dir all lie inside `directory`,
    /// and which cannot pick up the runner's own config.
    package static func environment(in directory: TestDirectory) throws -> [String: String?] {
        // No session bus: a test's daemon never posts notifications on the desktop of whoever runs the tests.
        var env: [String: String?] = ["HOME": directory.path, "INTERCOM_CONFIG": nil, "DBUS_SESSION_BUS_ADDRESS": nil]
        for (key, sub) in [("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"),
                           ("XDG_CACHE_HOME", "cache"), ("XDG_RUNTIME_DIR", "run")] {
            let dir = try directory.subdirectory(sub)
            if sub == "run" { chmod(dir.path, 0o700) }
            env[key] = dir.path
        }
        return env
    }

    /// Runs `intercom ARGS` to completion with a private environment; returns status, stdout, stderr.
    /// `stdin`: one line on its standard input (a login's code).
    package static func run(_ arguments: [String], in directory: TestDirectory, stdin: String? = nil,
                    timeout: Duration = TestPatience.condition) async throws -> (status: Int32, stdout: String, stderr: String) {
        guard let stdin else {
            return try await Subprocess.run(try path(), arguments, environment: try environment(in: directory),
                                            logDirectory: directory.url, timeout: timeout)
        }
        return try await Subprocess.run("/bin/bash", ["-c", "printf '%s\\n' \"$1\" | \"$0\" \"${@:2}\"", try path(), stdin] + arguments,
                                        environment: try environment(in: directory), logDirectory: directory.url, timeout: timeout)
    }

    /// Writes a config file with mode `mode` (0600 unless a test wants it loose).
    @discardableResult
    package static func writeConfig(_ text: String, in directory: TestDirectory, name: String = "config.ini",
                            mode: mode_t = 0o600) throws -> URL {
        let url = try directory.write(text, to: name)
        guard chmod(url.path, mode) == 0 else { throw HarnessError("chmod \(url.path) failed: errno \(errno)") }
        return url
    }
}
