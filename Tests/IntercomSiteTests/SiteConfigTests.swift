import Foundation
import IntercomBase
@testable import IntercomPostgres
import Testing

/// `[site]` as the config reads it: the URI, the TLS rule (verify-full to another machine unless
/// `tls = off`), no password in the config, the escalation pair, and the request timeout.
@Suite struct SiteConfigTests {
    static func parse(_ body: String) throws -> IntercomConfig {
        try ConfigLoader.parse(text: "[site]\n" + body, path: "config.ini", environment: ["HOME": "/home/u"]).config
    }

    static func error(_ body: String) -> ConfigError? {
        do {
            _ = try parse(body)
            return nil
        } catch { return error as? ConfigError }
    }

    @Test func noSiteSectionMeansALoneMachine() throws {
        let config = try ConfigLoader.parse(text: "", path: "config.ini", environment: ["HOME": "/home/u"]).config
        #expect(config.site == nil)
    }

    @Test func aLoopbackURLNeedsNoTLSAndTheDeskDefaultsToTheMachine() throws {
        let site = try #require(try Self.parse("url = postgresql://intercom@127.0.0.1:5432/intercom\n").site)
        #expect(site.tls == .auto && site.requiredSSLMode == nil)
        #expect(!site.deskName.isEmpty && site.desk == nil)
        #expect(site.escalateAfter == nil)
    }

    @Test func anotherMachineIsReachedWithVerifyFull() throws {
        let site = try #require(try Self.parse("url = postgresql://intercom@db.example/intercom\ndesk = lobby\n").site)
        #expect(site.requiredSSLMode == "verify-full")
        let target = try PostgresTarget(settings: site)
        #expect(target.keywords.last.map { "\($0.0)=\($0.1)" } == "sslmode=verify-full")
        // What the URI may override comes before it, what it may not after.
        #expect(target.keywords.map(\.0).suffix(2) == ["dbname", "sslmode"])
        #expect(target.keywords.map(\.0).prefix(2) == ["connect_timeout", "application_name"])
    }

    @Test func unixSocketsAndLoopbackAreLocal() throws {
        for url in ["postgresql:///intercom", "postgresql:///intercom?host=/run/postgresql", "postgres://[::1]:5433/x",
                    "postgresql://localhost/intercom", "postgresql://127.0.0.1,127.0.0.2/x"] {
            #expect(SiteURL(parsing: url)?.reachesAnotherMachine == false, "\(url)")
        }
        for url in ["postgresql://db/x", "postgresql://127.0.0.1,db.example/x", "postgresql:///x?host=10.0.0.5",
                    "postgresql:///x?hostaddr=192.168.1.2"] {
            #expect(SiteURL(parsing: url)?.reachesAnotherMachine == true, "\(url)")
        }
    }

    @Test func aWeakerSSLModeToAnotherMachineIsAConfigErrorNamingTLS() throws {
        let error = try #require(Self.error("url = postgresql://intercom@db.example/intercom?sslmode=require\n"))
        #expect(error.key == "tls" && error.exitCode == 65)
        #expect(error.description.contains("sslmode=require") && error.description.contains("tls = off"))
        #expect(!error.description.contains("\n"))
        // Said explicitly, the URI's own choice stands.
        let site = try #require(try Self.parse("url = postgresql://intercom@db.example/intercom?sslmode=require\ntls = off\n").site)
        #expect(site.requiredSSLMode == nil)
        #expect(try PostgresTarget(settings: site).keywords.last?.0 == "dbname")
    }

    @Test func aPasswordInTheURLIsRefused() throws {
        for url in ["postgresql://intercom:secret@db.example/intercom", "postgresql://db.example/intercom?password=secret"] {
            let error = try #require(Self.error("url = \(url)\n"))
            #expect(error.key == "url" && error.description.contains("password_file"))
            #expect(!error.description.contains("secret"))
        }
    }

    @Test func badValuesSayWhatToWrite() throws {
        #expect(Self.error("url = mysql://db/x\n")?.key == "url")
        #expect(Self.error("desk = a\n")?.key == "url")  // url is required, named first
        #expect(Self.error("url = postgresql:///x\ndesk = lobby desk\n")?.key == "desk")
        #expect(Self.error("url = postgresql:///x\ntls = maybe\n")?.key == "tls")
        #expect(Self.error("url = postgresql:///x\nescalate_after = 2s\nescalate_to = sip:g@pbx\n")?.key == "escalate_after")
        let missingTarget = try #require(Self.error("url = postgresql:///x\nescalate_after = 60s\n"))
        #expect(missingTarget.key == "escalate_after" && missingTarget.description.contains("escalate_to"))
        let site = try #require(try Self.parse("url = postgresql:///x\nescalate_after = 2m\nescalate_to = sip:guard@pbx.example.org\n").site)
        #expect(site.escalateAfter == .seconds(120) && site.escalateTo == "sip:guard@pbx.example.org")
    }

    @Test func theRequestTimeoutDefaultsToFiveSecondsAndBoundsTheConnectToo() throws {
        let plain = try #require(try Self.parse("url = postgresql:///x\n").site)
        #expect(plain.timeout == .seconds(5))
        let site = try #require(try Self.parse("url = postgresql:///x\ntimeout = 3s\n").site)
        #expect(site.timeout == .seconds(3))
        #expect(try PostgresTarget(settings: site).keywords.contains { $0 == ("connect_timeout", "3") })
        for bad in ["0", "61", "soon", "-1"] {
            let error = try #require(Self.error("url = postgresql:///x\ntimeout = \(bad)\n"), "timeout = \(bad)")
            #expect(error.key == "timeout" && error.description.contains("1 s to 60 s"), "\(error)")
        }
    }

    @Test func libpqMessagesAreFoldedOntoOneLine() {
        let text = "connection to server at \"127.0.0.1\", port 1 failed: Connection refused\n"
            + "\tIs the server running on that host and accepting TCP/IP connections?\n"
        #expect(PostgresError(.connect, text).message
            == "connection to server at \"127.0.0.1\", port 1 failed: Connection refused; Is the server running on that host and accepting TCP/IP connections?")
    }
}

/// libpq is loaded when a desk first connects; without it the connection says which package to install.
@Suite struct PostgresLibraryTests {
    @Test func aMissingLibraryNamesItsPackage() {
        #expect(PostgresLibrary.open("libpq-not-there.so.0").loadProblem?.contains("install the Debian package libpq5") == true)
        #expect(PostgresLibrary.loaded.loadProblem == nil)
    }
}
