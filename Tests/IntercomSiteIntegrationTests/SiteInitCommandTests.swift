import Foundation
import IntercomTestSupport
import Testing

/// `intercom site init` as an operator runs it: the built binary against a real PostgreSQL, over TCP
/// with the password from `password_file`.
@Suite(.serialized) struct SiteInitCommandTests {
    @Test func createsThenSaysCurrentThenRefusesANewerSchema() async throws {
        try await SiteTestRig.with { rig in
            let folder = try TestDirectory(prefix: "site-init")
            let password = try folder.write(rig.server.password + "\n", to: "site-password")
            #expect(chmod(password.path, 0o600) == 0)
            let config = try IntercomBinary.writeConfig("[site]\nurl = \(rig.server.tcpURL(rig.database))\n"
                + "password_file = \(password.path)\ndesk = lobby\n", in: folder)
            let first = try await IntercomBinary.run(["site", "init", "--config", config.path], in: folder)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains("site ok: schema version 2 (created)"), "\(first.stdout)")
            let again = try await IntercomBinary.run(["site", "init", "--config", config.path], in: folder)
            #expect(again.stdout.contains("schema version 2 (already current)"), "\(again.stdout)\(again.stderr)")
            try await rig.server.psql("UPDATE site_schema SET version = 7", database: rig.database)
            let newer = try await IntercomBinary.run(["site", "init", "--config", config.path], in: folder)
            #expect(newer.status == 65)
            #expect(newer.stderr == "intercom: site init: the site's schema is version 7; this intercom knows up to 2: "
                + "upgrade intercom on this desk\n", "\(newer.stderr)")
            // The password file readable by others: refused before anything is sent, as a config error.
            #expect(chmod(password.path, 0o644) == 0)
            let loose = try await IntercomBinary.run(["site", "init", "--config", config.path], in: folder)
            #expect(loose.status == 65 && loose.stderr.contains("password_file") && loose.stderr.contains("chmod 600"), "\(loose.stderr)")
            await rig.server.stop()
            #expect(chmod(password.path, 0o600) == 0)
            let down = try await IntercomBinary.run(["site", "init", "--config", config.path], in: folder)
            #expect(down.status == 69 && down.stderr.split(separator: "\n").count == 1, "\(down.stderr)")
        }
    }
}
