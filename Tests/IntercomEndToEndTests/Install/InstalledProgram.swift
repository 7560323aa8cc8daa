import Foundation
import IntercomTestSupport

/// What the install tests share: the repository (for make and the committed docs), the build under
/// test, and a config with two panels for the completions to offer.
enum InstalledProgram {
    /// The repository's root, from this file's place in it.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder of the binaries under test (`make install-files BUILT=` takes it).
    static func built() throws -> String {
        ((try IntercomBinary.path()) as NSString).deletingLastPathComponent
    }

    /// Runs a program to completion with the test's private environment.
    static func run(_ executable: String, _ arguments: [String], in dir: TestDirectory,
                    environment: [String: String?] = [:], timeout: Duration = .seconds(60))
        async throws -> (status: Int32, stdout: String, stderr: String) {
        var env = try IntercomBinary.environment(in: dir)
        env.merge(environment) { _, new in new }
        return try await Subprocess.run(try ExternalTool.path(executable), arguments, environment: env,
                                        logDirectory: dir.url, timeout: timeout)
    }

    /// `intercom ARGS` from the build under test; fails the test on a non-zero exit.
    static func output(_ arguments: [String], in dir: TestDirectory) async throws -> String {
        let result = try await IntercomBinary.run(arguments, in: dir)
        guard result.status == 0 else {
            throw HarnessError("intercom \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return result.stdout
    }

    /// A config with panels `porch` and `gate` (addresses never contacted: completion reads names only).
    @discardableResult
    static func writeTwoPanelConfig(in dir: TestDirectory) throws -> URL {
        try IntercomBinary.writeConfig("""
            [panel porch]
            url = http://192.0.2.10
            user = admin
            password = admin
            [panel gate]
            url = http://192.0.2.11
            user = admin
            password = admin
            """, in: dir)
    }

    /// Renders a man page as a reader sees it, wide enough that no word is hyphenated.
    static func man(_ page: String, in dir: TestDirectory) async throws -> String {
        let result = try await run("man", ["-l", page], in: dir, environment: ["MANWIDTH": "400", "MANPAGER": "cat", "PAGER": "cat"])
        guard result.status == 0, !result.stdout.isEmpty else {
            throw HarnessError("man -l \(page) exited \(result.status): \(result.stderr)")
        }
        return result.stdout
    }
}
