import Foundation
import IntercomBase
@testable import IntercomPostgres
import IntercomTestSupport
import Testing

/// `[site] password_file` must be a regular file of this user's that no one else can read; the
/// config refuses anything else at load (exit 65), and the connection checks again before use.
@Suite struct SitePasswordFileTests {
    static func file(_ directory: TestDirectory, mode: Int16, text: String = "s3cret\n") throws -> String {
        let url = try directory.write(text, to: "password-\(mode)")
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url.path
    }

    static func load(_ directory: TestDirectory, passwordFile: String) throws -> IntercomConfig {
        let config = try directory.write("[site]\nurl = postgresql:///intercom\npassword_file = \(passwordFile)\n",
                                         to: "config.ini")
        try FileManager.default.setAttributes([.posixPermissions: Int16(0o600)], ofItemAtPath: config.path)
        return try ConfigLoader.load(explicit: config.path, environment: ["HOME": directory.path]).config
    }

    @Test func aPrivateFileGivesItsFirstLine() throws {
        let directory = try TestDirectory(prefix: "site-password")
        let path = try Self.file(directory, mode: 0o600, text: "s3cret\nignored\n")
        #expect(SitePasswordFile.problem(path) == nil)
        #expect(try SitePasswordFile.read(path) == "s3cret")
        let site = try #require(try Self.load(directory, passwordFile: path).site)
        #expect(try PostgresTarget(settings: site).keywords.contains { $0 == ("password", "s3cret") })
    }

    @Test func aFileOthersCanReadIsAConfigErrorWithTheFix() throws {
        let directory = try TestDirectory(prefix: "site-password")
        let path = try Self.file(directory, mode: 0o640)
        do {
            _ = try Self.load(directory, passwordFile: path)
            Issue.record("a 0640 password file was accepted")
        } catch let error as ConfigError {
            #expect(error.key == "password_file" && error.exitCode == 65)
            #expect(error.description.contains("chmod 600") && !error.description.contains("s3cret"))
        }
        // The connection's own check says the same before anything is sent.
        let site = SiteConfig(url: "postgresql:///intercom", passwordFile: path)
        #expect(throws: PostgresError.self) { try PostgresTarget(settings: site) }
    }

    @Test func aFolderALinkOrNothingIsNoPasswordFile() throws {
        let directory = try TestDirectory(prefix: "site-password")
        #expect(SitePasswordFile.problem(directory.path)?.message.contains("not a regular file") == true)
        let real = try Self.file(directory, mode: 0o600)
        let link = directory.file("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        #expect(SitePasswordFile.problem(link)?.message.contains("not a regular file") == true)
        #expect(SitePasswordFile.problem(directory.file("missing").path)?.message.contains("cannot read") == true)
        let empty = try Self.file(directory, mode: 0o600, text: "")
        #expect(throws: ConfigValueError.self) { try SitePasswordFile.read(empty) }
    }

    /// Owned by another user, even 0600 is refused: whoever owns it can change it. (Needs root to chown.)
    @Test func anotherUsersFileIsRefusedWhenWeCanMakeOne() throws {
        let directory = try TestDirectory(prefix: "site-password")
        let path = try Self.file(directory, mode: 0o600)
        guard geteuid() == 0 else {
            // Not root: no file of another user's can be made here; the owner rule is then shown by
            // a file we own passing (above) and nothing else.
            #expect(SitePasswordFile.problem(path) == nil)
            return
        }
        #expect(chown(path, 65534, 65534) == 0)
        #expect(SitePasswordFile.problem(path)?.message.contains("belongs to uid 65534") == true)
    }
}
