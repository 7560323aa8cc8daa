import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// What a user sees for bad config and bad command lines: the exit codes and the one stderr line
/// every command keeps to.
@Suite("intercom: bad input", .removesTestFolders) struct DaemonBadInputTests {
    /// Non-empty stderr lines.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    @Test("a malformed config line: exit 65, one line naming the file and the line")
    func malformedLine() async throws {
        let dir = try TestDirectory(prefix: "intercom-e2e-bad")
        let config = try IntercomBinary.writeConfig("""
            [sip]
            listen = udp:127.0.0.1:0
            this line has no equals sign
            """, in: dir)
        let r = try await IntercomBinary.run(["daemon", "--events", "json", "--config", config.path], in: dir)
        #expect(r.status == 65, "stderr: \(r.stderr)")
        let err = Self.lines(r.stderr)
        #expect(err.count == 1, "expected one stderr line, got: \(err)")
        #expect(err.first?.contains(config.path) == true, "no file name: \(err)")
        #expect(err.first?.contains("\(config.path):3") == true, "no line number 3: \(err)")
        #expect(r.stdout.isEmpty, "stdout: \(r.stdout)")
    }

    @Test("an unknown key: a warning naming the key, and the config still loads")
    func unknownKeyWarns() async throws {
        let dir = try TestDirectory(prefix: "intercom-e2e-warn")
        let config = try IntercomBinary.writeConfig("""
            [sip]
            listen = udp:127.0.0.1:0
            frobnication_level = 11
            """, in: dir)
        let r = try await IntercomBinary.run(["config", "--check", "--config", config.path], in: dir)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let warnings = Self.lines(r.stderr).filter { $0.contains("frobnication_level") }
        #expect(warnings.count == 1, "stderr: \(r.stderr)")
        #expect(warnings.first?.contains("warning") == true && warnings.first?.contains("\(config.path):3") == true,
                "stderr: \(r.stderr)")
    }

    @Test("the listen port is taken: exit 69 and one line")
    func listenPortTaken() async throws {
        let holder = try UDPPortHolder()
        let dir = try TestDirectory(prefix: "intercom-e2e-port")
        let config = try IntercomBinary.writeConfig("""
            [sip]
            listen = udp:127.0.0.1:\(holder.port)
            """, in: dir)
        let r = try await IntercomBinary.run(["daemon", "--events", "json", "--config", config.path], in: dir)
        #expect(r.status == 69, "stdout: \(r.stdout)\nstderr: \(r.stderr)")
        let err = Self.lines(r.stderr)
        #expect(err.count == 1, "expected one stderr line, got: \(err)")
        #expect(err.first?.contains(String(holder.port)) == true, "the line should name the port: \(err)")
        withExtendedLifetime(holder) {}
    }

    @Test("--config naming a missing file: exit 65, one line naming it")
    func missingConfigFile() async throws {
        let dir = try TestDirectory(prefix: "intercom-e2e-missing")
        let path = dir.file("nope.ini").path
        let r = try await IntercomBinary.run(["daemon", "--events", "json", "--config", path], in: dir)
        #expect(r.status == 65, "stderr: \(r.stderr)")
        let err = Self.lines(r.stderr)
        #expect(err.count == 1 && err.first?.contains(path) == true, "stderr: \(err)")
    }

    @Test("unknown command: exit 64")
    func unknownCommand() async throws {
        let dir = try TestDirectory(prefix: "intercom-e2e-usage")
        let r = try await IntercomBinary.run(["frobnicate"], in: dir)
        #expect(r.status == 64, "stderr: \(r.stderr)")
        let err = Self.lines(r.stderr)
        #expect(err.count == 1 && err.first?.contains("frobnicate") == true, "stderr: \(err)")
    }

    @Test("unknown option: exit 64")
    func unknownOption() async throws {
        let dir = try TestDirectory(prefix: "intercom-e2e-usage")
        let r = try await IntercomBinary.run(["daemon", "--bogus"], in: dir)
        #expect(r.status == 64, "stderr: \(r.stderr)")
        let err = Self.lines(r.stderr)
        #expect(err.count == 1 && err.first?.contains("--bogus") == true, "stderr: \(err)")
    }

    @Test("a config holding a password readable by others: exit 65, says chmod 600, leaks no secret")
    func loosePasswordFile() async throws {
        let dir = try TestDirectory(prefix: "intercom-e2e-perm")
        let config = try IntercomBinary.writeConfig("""
            [sip]
            listen = udp:127.0.0.1:0

            [panel entrance]
            url = http://127.0.0.1:9
            password = hunter2-secret
            """, in: dir, mode: 0o644)
        let r = try await IntercomBinary.run(["daemon", "--events", "json", "--config", config.path], in: dir)
        #expect(r.status == 65, "stderr: \(r.stderr)")
        let err = Self.lines(r.stderr)
        #expect(err.count == 1, "expected one stderr line, got: \(err)")
        #expect(err.first?.contains("chmod 600") == true, "stderr: \(err)")
        #expect(err.first?.contains(config.path) == true, "stderr: \(err)")
        #expect(!r.stderr.contains("hunter2") && !r.stdout.contains("hunter2"), "the password leaked: \(r.stderr)")
    }
}
