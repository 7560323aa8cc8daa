import Foundation
import IntercomTestSupport
import Testing

/// `intercom doctor` at a desk of a site says in one line whether the site's store answers, with
/// its schema, and why not when it does not (issue 40); it never creates or upgrades the schema.
@Suite(.serialized) struct SiteDoctorTests {
    @Test func doctorSaysTheStoreAndItsSchemaOrWhyItCannotBeReached() async throws {
        try await SiteTestRig.with { rig in
            let folder = try TestDirectory(prefix: "site-doctor")
            let config = try IntercomBinary.writeConfig("[site]\nurl = \(rig.server.socketURL(rig.database))\ndesk = lobby\n", in: folder)
            let empty = try await IntercomBinary.run(["doctor", "--config", config.path], in: folder)
            #expect(empty.stdout.contains("has no site schema yet; run 'intercom site init' (desk lobby)"), "\(empty.stdout)")
            #expect(try await IntercomBinary.run(["site", "init", "--config", config.path], in: folder).status == 0)
            let fine = try await IntercomBinary.run(["doctor", "--config", config.path], in: folder)
            #expect(fine.stdout.contains("reachable, schema version 2 (desk lobby)"), "\(fine.stdout)")
            await rig.server.stop()
            let down = try await IntercomBinary.run(["doctor", "--config", config.path], in: folder)
            let line = down.stdout.split(separator: "\n").filter { $0.contains("store ") }
            #expect(line.count == 1 && line[0].contains("unreachable:") && line[0].contains("check [site] url"), "\(down.stdout)")
            #expect(down.status != 0)
        }
    }
}
